import { z } from 'zod';
import { AppError } from '../../app-error.js';
import type { RequestContext } from '../../context.js';
import { type KidlispPreview, previewKidlisp } from '../../domain/kidlisp/index.js';
import type { RuntimeReport } from '../../domain/kidlisp/runtime/index.js';
import { codeField } from '../items/inputs.js';
import { loadCode } from '../items/loaders.js';
import { defineOperation } from '../operation.js';
import { KIDLISP_MAX } from '../publish/inputs.js';
import { enforcePublishLimit } from '../publish/rate-limit.js';
import { failIfRemoved } from '../takedowns/removal.js';
import { failWith, sourceField } from '../validation.js';
import { drawingOf } from './drawing.js';
import {
  RENDER_FRAME_LAST,
  RENDER_FRAMES_MAX,
  RENDER_SEED_MAX,
  RENDER_SIZE_DEFAULT,
  RENDER_SIZE_MAX,
} from './render-limits.js';

const sizeField = (field: string) => {
  const message = `${field} must be a whole number from 1 to ${RENDER_SIZE_MAX}.`;
  return z
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(RENDER_SIZE_MAX, message)
    .default(RENDER_SIZE_DEFAULT);
};

const framesMessage = `frames must be a list of 1 to ${RENDER_FRAMES_MAX} frame numbers, each a whole number from 0 to ${RENDER_FRAME_LAST}.`;
const seedMessage = `seed must be a whole number from 0 to ${RENDER_SEED_MAX}.`;

export const renderKidlispInput = z
  .object({
    source: sourceField(KIDLISP_MAX).optional(),
    code: codeField.optional(),
    frames: z
      .array(
        z
          .number({ error: framesMessage })
          .int(framesMessage)
          .min(0, framesMessage)
          .max(RENDER_FRAME_LAST, framesMessage),
        { error: framesMessage },
      )
      .min(1, framesMessage)
      .max(RENDER_FRAMES_MAX, framesMessage)
      .optional(),
    width: sizeField('width'),
    height: sizeField('height'),
    seed: z
      .number({ error: seedMessage })
      .int(seedMessage)
      .min(0, seedMessage)
      .max(RENDER_SEED_MAX, seedMessage)
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.source === undefined && input.code === undefined)
      failWith(
        ctx,
        'SOURCE_REQUIRED',
        'Pass source (KidLisp text) or code (the code of a published KidLisp work).',
      );
    if (input.source !== undefined && input.code !== undefined)
      failWith(ctx, 'INVALID_INPUT', 'Pass source or code, not both.');
  });

export type RenderKidlispInput = z.output<typeof renderKidlispInput>;

/** One picture: the frame it was taken after, and its PNG as base64. */
export interface RenderedImage {
  frame: number;
  mimeType: 'image/png';
  data: string;
}

/** What a render answers: its pictures, the runtime's report and the validator's result. */
export interface KidlispRender {
  /** The work drawn, when it was asked by code; null for a source. */
  code: string | null;
  width: number;
  height: number;
  seed: number;
  frames: number[];
  report: RuntimeReport;
  preview: KidlispPreview;
  images: RenderedImage[];
}

/** The source of a published KidLisp work (`$` before the code is allowed); ITEM_NOT_FOUND otherwise. */
async function publishedSource(ctx: RequestContext, written: string): Promise<[string, string]> {
  const code = written.replace(/^\$/, '');
  const item = await loadCode(ctx, code, ['kidlisp']);
  if (!item) await failIfRemoved(ctx, code);
  if (!item)
    throw new AppError('ITEM_NOT_FOUND', `No KidLisp work is published under the code ${code}.`);
  return [code, item.source ?? ''];
}

/**
 * `render_kidlisp` and `POST /api/render-kidlisp`: pictures of a program's frames drawn by the
 * runtime in the thumbnail worker. It draws on the service's machine, so it counts toward the
 * publish rate limit like a publish.
 */
export const renderKidlisp = defineOperation({
  name: 'renderKidlisp',
  input: renderKidlispInput,
  async run(ctx: RequestContext, input: RenderKidlispInput): Promise<KidlispRender> {
    await enforcePublishLimit(ctx);
    const [code, source] =
      input.source !== undefined
        ? [null, input.source]
        : await publishedSource(ctx, input.code as string);
    const frames = [...new Set(input.frames ?? [0])].sort((a, b) => a - b);
    const { width, height } = input;
    const rendered = await ctx.services.pictures.frames({
      ...(await drawingOf(ctx, source)),
      width,
      height,
      frames,
      seed: input.seed,
      client: ctx.clientKey,
      trace: ctx.services.trace,
    });
    return {
      code,
      width,
      height,
      seed: rendered.seed,
      frames,
      report: rendered.report,
      preview: previewKidlisp(source),
      images: rendered.pngs.map((png, index) => ({
        frame: frames[index] as number,
        mimeType: 'image/png',
        data: png.toString('base64'),
      })),
    };
  },
});
