/** The most a GraphQL query may cost (src/graphql/cost.ts prices it; docs/contract.md). */
export const QUERY_COST_MAX = 5_000;

/** The most global ids one `nodes(ids:)` takes (TOO_MANY_IDS beyond). */
export const NODES_MAX = 100;
