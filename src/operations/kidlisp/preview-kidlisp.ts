import { z } from 'zod';
import {
  previewKidlisp as checkKidlisp,
  type KidlispPreview as ValidatorPreview,
} from '../../domain/kidlisp/index.js';
import { wordsNotDrawn } from '../../domain/kidlisp/runtime/index.js';
import { defineOperation } from '../operation.js';
import { KIDLISP_MAX } from '../publish/inputs.js';
import { sourceField } from '../validation.js';

/** The validator's preview, and the words a viewer of this service would not draw (`not_drawn`). */
export type KidlispPreview = ValidatorPreview & { not_drawn: string[] };

/** An empty source is not an input error here: the preview reports it (valid: false). */
export const previewKidlispInput = z.object({
  source: sourceField(KIDLISP_MAX, { allowBlank: true }),
});

/** The one place the preview's two halves meet: the validator's result and the runtime's word table. */
export const previewWithRuntime = (source: string): KidlispPreview => ({
  ...checkKidlisp(source),
  not_drawn: wordsNotDrawn(source),
});

/** Pure: it needs no request context, so the stdio server runs it locally too. */
export const previewKidlisp = defineOperation({
  name: 'previewKidlisp',
  input: previewKidlispInput,
  run: async (_ctx: unknown, input: z.output<typeof previewKidlispInput>) =>
    previewWithRuntime(input.source),
});
