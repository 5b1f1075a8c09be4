import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../context.js';
import { inputError } from '../operations/validation.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [ZodPlugin, RelayPlugin],
  zod: {
    // GraphQL-only argument rules fail with the same machine codes as the operations.
    validationError: (zodError, args) => inputError(zodError, args),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
