// Loaded before the GraphiQL bundle: the editor's workers come from this origin, and the page
// renders once the bundle has run (DOMContentLoaded fires after every parser-inserted script).
(() => {
  const workers = { editorWorkerService: 1, json: 1, graphql: 1 };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) =>
      `/assets/graphiql/${workers[label] ? label : 'editorWorkerService'}.worker.js`,
  };
  document.addEventListener('DOMContentLoaded', () => {
    const options = JSON.parse(document.getElementById('graphiql-options').textContent || '{}');
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
  });
})();
