import { z } from 'zod';
import { previewKidlisp as checkKidlisp, type KidlispPreview } from '../../domain/kidlisp/index.js';
import { defineOperation } from '../operation.js';
import { KIDLISP_MAX } from '../publish/inputs.js';
import { sourceField } from '../validation.js';

export type { KidlispPreview };

/** An empty source is not an input error here: the preview reports it (valid: false). */
export const previewKidlispInput = z.object({
  source: sourceField(KIDLISP_MAX, { allowBlank: true }),
});

/** Pure: it needs no request context, so the stdio server runs it locally too. */
export const previewKidlisp = defineOperation({
  name: 'previewKidlisp',
  input: previewKidlispInput,
  run: async (_ctx: unknown, input: z.output<typeof previewKidlispInput>) =>
    checkKidlisp(input.source),
});
