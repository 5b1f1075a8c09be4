import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../context.js';
import { inputError } from '../operations/validation.js';
import { defaultFieldCost } from './cost.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [ZodPlugin, RelayPlugin, ComplexityPlugin],
  // Prices only: useQueryCost (src/graphql/query-cost.ts) measures each operation and refuses.
  complexity: { disabled: true, fieldComplexity: (_args, _ctx, field) => defaultFieldCost(field) },
  zod: {
    // GraphQL-only argument rules fail with the same machine codes as the operations.
    validationError: (zodError, args) => inputError(zodError, args),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Query.node and Query.nodes are src/graphql/nodes.ts: a malformed id answers null there.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
