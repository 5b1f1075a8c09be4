import type { FieldComplexityValue } from '@pothos/plugin-complexity';
import { type GraphQLOutputType, getNamedType, isCompositeType } from 'graphql';

type Field = { type: GraphQLOutputType };

/*
 * The cost model of page sizes (docs/contract.md, GraphQL: the cost of a query), priced by
 * @pothos/plugin-complexity: a field that fetches an object costs 1, a scalar 0; a page or list
 * multiplies what it selects by how many it asks for. Edges and pageInfo are the page's own
 * wrapping (the node in an edge is what costs), and fragments cost their fields, as inlined.
 * A price reads the arguments alone, never the context: useQueryCost keeps it per operation.
 * The limit is QUERY_COST_MAX (src/http/graphql-limits.ts).
 */

const isWrapping = (typeName: string) => typeName.endsWith('Edge') || typeName === 'PageInfo';

/** Fields with no price of their own: an object costs 1, a scalar 0; nothing is multiplied. */
export function defaultFieldCost(field: Field): FieldComplexityValue {
  const named = getNamedType(field.type);
  if (!isCompositeType(named) || isWrapping(named.name)) return { field: 0, multiplier: 1 };
  return { field: 1, multiplier: 1 };
}

/** A connection: the query costs 1, each node of the page asked (`first`, `last` or the default page) what it selects. */
export const pageCost =
  (defaultPage: number) =>
  (args: { first?: number | null; last?: number | null }): FieldComplexityValue => ({
    field: 1,
    multiplier: args.first ?? args.last ?? defaultPage,
  });

/** A list of `count` objects fetched together: 1, and each what it selects. */
export const listCost = (count: number): FieldComplexityValue => ({ field: 1, multiplier: count });
