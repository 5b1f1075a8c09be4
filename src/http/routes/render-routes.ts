import { previewKidlisp } from '../../domain/kidlisp/index.js';
import { kidlispRenderAnswerSchema } from '../../operations/assistant-catalog.js';
import { renderKidlisp } from '../../operations/kidlisp/render-kidlisp.js';
import {
  RENDER_BUDGET_MS,
  RENDER_FRAME_LAST,
  RENDER_FRAMES_MAX,
  RENDER_SIZE_DEFAULT,
  RENDER_SIZE_MAX,
} from '../../operations/kidlisp/render-limits.js';
import { bodyOperation, POST_ERRORS, type RouteSpec } from './route-spec.js';

const EXAMPLE_SOURCE = '(wipe navy) (ink red) (box 0 0 20 20)';

/** `POST /api/render-kidlisp`: what render_kidlisp draws, for the publish-mcp command and anyone else. */
export function renderRoutes(): RouteSpec[] {
  return [
    {
      name: 'Render KidLisp',
      operationId: 'renderKidlisp',
      method: 'POST',
      path: '/api/render-kidlisp',
      description:
        'Draws KidLisp source (or a published work by code) with the runtime the pages use and answers one PNG per ' +
        "frame asked, with the runtime's report and the validator's result. Nothing is stored. The MCP tool " +
        'render_kidlisp answers the same.',
      authentication: 'optional',
      ...bodyOperation(renderKidlisp, 'ok', {
        descriptions: {
          source: 'KidLisp source to draw; or give code.',
          code: 'The code of a published KidLisp work to draw (a leading $ is allowed).',
          frames: `Frames to draw (60 a second, 0 to ${RENDER_FRAME_LAST}), at most ${RENDER_FRAMES_MAX}; default [0].`,
          width: `Picture width, 1 to ${RENDER_SIZE_MAX} (default ${RENDER_SIZE_DEFAULT}).`,
          height: `Picture height, 1 to ${RENDER_SIZE_MAX} (default ${RENDER_SIZE_DEFAULT}).`,
          seed: "Seed of ?, choose, random and wiggle, 0 to 2^32-1; default: the seed of the work's thumbnail.",
        },
      }),
      response: {
        statuses: [200],
        description: 'The pictures, in the order of frames, and what was found while drawing them.',
        schema: kidlispRenderAnswerSchema,
        descriptions: {
          code: 'The work drawn when it was asked by code; else null.',
          width: 'Picture width.',
          height: 'Picture height.',
          seed: 'The seed the frames were drawn with.',
          frames: 'The frames drawn, ascending.',
          report: "The runtime's report: unsupported words, unknown words, problems.",
          preview: "The validator's result, as preview_kidlisp and GraphQL previewKidlisp give it.",
          images: 'One {frame, mimeType: image/png, data: base64} per frame.',
          'preview.errors':
            'Error messages (the program may still draw; the report says what it met).',
          'preview.warnings': 'Warning messages.',
          'preview.stats': 'What the program uses, as preview_kidlisp counts it.',
          'preview.stats.lines': 'Lines of source.',
          'preview.stats.timing_words': 'Timing words used (1s, 2s..., 0.5s!).',
        },
      },
      errors: [
        'SOURCE_REQUIRED',
        'SOURCE_NOT_STRING',
        'SOURCE_TOO_LONG',
        'ITEM_NOT_FOUND',
        'ITEM_REMOVED',
        'RENDER_TOO_SLOW',
        ...POST_ERRORS,
      ],
      examples: [
        {
          title: 'Draw two frames of a program',
          request: {
            method: 'POST',
            path: '/api/render-kidlisp',
            body: { source: EXAMPLE_SOURCE, frames: [0, 30], width: 128, height: 128, seed: 7 },
          },
          response: {
            status: 200,
            body: {
              code: null,
              width: 128,
              height: 128,
              seed: 7,
              frames: [0, 30],
              report: { unsupported: [], unknown: [], problems: [] },
              preview: previewKidlisp(EXAMPLE_SOURCE),
              images: [
                { frame: 0, mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAIAAAACA...' },
                { frame: 30, mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAIAAAACA...' },
              ],
            },
          },
        },
      ],
      notes: [
        `A render that does not finish within ${RENDER_BUDGET_MS / 1000} s answers 422 RENDER_TOO_SLOW. Every render counts toward the publish rate limit like a publish.`,
      ],
    },
  ];
}
