import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../resolvers/context.js';
import { inputError } from '../resolvers/validation.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [ZodPlugin, RelayPlugin],
  zod: {
    // The same machine codes as REST: the schemas are the operations' own.
    validationError: (zodError, args) => inputError(zodError, args),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
  },
});

builder.queryType({});
builder.mutationType({});
