import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';
import type { RequestContext } from '../context.js';
import type { z } from 'zod';
import { inputError } from '../operations/validation.js';

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

/** plugin-zod hands a resolver the output of the field's `validate.schema`; this names its type. */
export const validated = <S extends z.ZodType>(_schema: S, args: unknown) => args as z.output<S>;

/** A limit as the descriptions print it: 50,000. */
export const count = (n: number) => n.toLocaleString('en-US');
