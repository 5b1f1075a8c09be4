import { NODES_MAX, QUERY_COST_MAX } from '../http/graphql-limits.js';

/** How the GraphQL face prices a query and names its objects (docs/contract.md, GraphQL). */
export function graphqlDocs() {
  return {
    cost: {
      limit: QUERY_COST_MAX,
      description:
        `Each query is priced before it runs and refused above ${QUERY_COST_MAX} with QUERY_TOO_COSTLY ` +
        '(extensions.cost holds requestedQueryCost and maximumAvailable); every answer carries its price in ' +
        'extensions.cost. A field that fetches an object costs 1, a scalar 0; a page (published, works, remixes, ' +
        'chatMessages) costs 1 plus its first or last (else its default page) times what each node selects; a list ' +
        '(items, nodes, lineage) 1 plus its length times what each selects. Edges and pageInfo cost nothing of their ' +
        'own, a fragment exactly its fields inlined; __typename costs 1. Depth (12, fragments counted as inlined), ' +
        'aliases (15), directives (20) and tokens (2,000) have their own limits.',
      examples: [
        {
          query: '{ published(first: 24) { edges { node { code author { handle } } } } }',
          cost: 49,
        },
        {
          query:
            '{ item(code: "k7x") { remixes(first: 10) { edges { node { code remixes(first: 10) { edges { node { code } } } } } } } }',
          cost: 1 + 1 + 10 * (1 + 1 + 10),
        },
      ],
    },
    globalIds:
      'Published items of every kind, authors and chat messages implement Node: id is a global id, opaque and unique ' +
      'across types (a chat message keeps the id REST gives it). node(id:) answers any of them, nodes(ids:) up to ' +
      `${NODES_MAX} in one query per collection; an id that names nothing (unknown or malformed) answers null. ` +
      'Relay, Apollo Client and urql normalize by it without configuration; code stays the address people use.',
  };
}
