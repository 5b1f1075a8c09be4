import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** Files that change the process itself (a global removed), so they run in a process of their own. */
const OWN_PROCESS = ['test/domain/kidlisp/pixels/without-webassembly.test.ts'];

export default defineConfig({
  resolve: {
    // One copy of graphql for the schema and the executor ("another module or realm").
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_PROCESS],
          // Each fork runs its files one after another in one module graph instead of importing
          // the app (graphql, the driver, the embedded engine) again for every file: that import
          // was half of a run. Every app, server, database and browser is started and closed by
          // the file that uses it, so no file reads what another left in a module.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
