import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import { MAX_TAPE_SECONDS, MEDIA_EXTS } from '../../domain/media.js';
import { publishResultSchema } from '../../operations/assistant-catalog.js';
import { REMIX_OF_DESCRIPTION } from '../../operations/lineage/remix-of-field.js';
import {
  publishClock,
  publishKidlisp,
  publishPiece,
  trackMedia,
} from '../../operations/publish/index.js';
import {
  bodyOperation,
  POST_ERRORS,
  publishResponseDescriptions,
  type RouteSpec,
} from './route-spec.js';

export const trackMediaResponseSchema = z.object({
  code: z.string(),
  slug: z.string(),
  url: z.string(),
  cached: z.boolean(),
});

const published = (code: string, url: string) => ({ code, url, cached: false });

/**
 * What a publish of source text can fail with besides POST_ERRORS (ITEM_NOT_FOUND: its remixOf;
 * ITEM_REMOVED: its remixOf, or the same source as a work an operator removed).
 */
const SOURCE_ERRORS: ErrorCode[] = [
  'SOURCE_REQUIRED',
  'SOURCE_NOT_STRING',
  'SOURCE_TOO_LONG',
  'ITEM_NOT_FOUND',
  'ITEM_REMOVED',
  'INSUFFICIENT_SCOPE',
];

export function publishRoutes(baseUrl: string): RouteSpec[] {
  return [
    {
      name: 'Store KidLisp',
      operationId: 'storeKidlisp',
      method: 'POST',
      path: '/api/store-kidlisp',
      description:
        'Publishes KidLisp source and returns its short code. Identical (trimmed) source returns the existing code.',
      authentication: 'optional',
      ...bodyOperation(publishKidlisp, 'created', {
        descriptions: { source: 'KidLisp source.', remixOf: REMIX_OF_DESCRIPTION },
      }),
      response: {
        statuses: [201, 200],
        description: '201 for new source, 200 with cached: true when it already existed.',
        schema: publishResultSchema,
        descriptions: publishResponseDescriptions,
      },
      errors: [...SOURCE_ERRORS, ...POST_ERRORS],
      examples: [
        {
          title: 'Publish a KidLisp program',
          request: {
            method: 'POST',
            path: '/api/store-kidlisp',
            body: { source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)' },
          },
          response: { status: 201, body: published('k7x', `${baseUrl}/k7x`) },
        },
        {
          title: 'Publish a remix of a program',
          request: {
            method: 'POST',
            path: '/api/store-kidlisp',
            body: { source: '(wipe purple)\n(ink yellow)\n(circle 128 128 80)', remixOf: 'k7x' },
          },
          response: { status: 201, body: published('r2d', `${baseUrl}/r2d`) },
        },
      ],
      notes: ['View it at {baseURL}/<code> (or {baseURL}/$<code>).'],
    },
    {
      name: 'Store clock melody',
      operationId: 'storeClock',
      method: 'POST',
      path: '/api/store-clock',
      description: 'Publishes a clock melody string and returns its pronounceable short code.',
      authentication: 'optional',
      ...bodyOperation(publishClock, 'created', {
        descriptions: {
          source: 'Melody: note tokens; spaces separate tracks that play together.',
          remixOf: REMIX_OF_DESCRIPTION,
        },
        legacy: {
          melody: {
            sameAs: 'source',
            description: 'Legacy name of source; when both are sent, source wins.',
          },
        },
      }),
      response: {
        statuses: [201, 200],
        description: '201 for a new melody, 200 with cached: true when it already existed.',
        schema: publishResultSchema,
        descriptions: publishResponseDescriptions,
      },
      errors: [...SOURCE_ERRORS, ...POST_ERRORS],
      examples: [
        {
          title: 'Publish a melody',
          request: {
            method: 'POST',
            path: '/api/store-clock',
            body: { source: '{square} 5cdefg ceg' },
          },
          response: { status: 201, body: published('bako', `${baseUrl}/clock~bako`) },
        },
      ],
      notes: ['Play it at {baseURL}/clock~<code>.'],
    },
    {
      name: 'Store piece',
      operationId: 'storePiece',
      method: 'POST',
      path: '/api/store-piece',
      description:
        'Publishes a JavaScript piece (an .mjs module) from its source. The service stores the module; no storage credentials are needed.',
      authentication: 'optional',
      ...bodyOperation(publishPiece, 'created', {
        descriptions: {
          source: 'Module source; must export boot, paint, sim or act, or a default.',
          name: 'Name of the piece; the code is its slug, then slug-2, slug-3, ...',
          remixOf: REMIX_OF_DESCRIPTION,
        },
      }),
      response: {
        statuses: [201, 200],
        description:
          '201 for a new piece, 200 with cached: true when the same source already existed.',
        schema: publishResultSchema,
        descriptions: publishResponseDescriptions,
      },
      errors: [
        ...SOURCE_ERRORS,
        'NAME_INVALID',
        'NAME_UNSAFE_CHARACTERS',
        'PIECE_NO_LIFECYCLE',
        'PIECE_SYNTAX',
        'STORAGE_UNAVAILABLE',
        ...POST_ERRORS,
      ],
      examples: [
        {
          title: 'Publish a named piece with a token',
          request: {
            method: 'POST',
            path: '/api/store-piece',
            withToken: true,
            body: {
              name: 'Red Box',
              source:
                'export function paint({ wipe, ink }) {\n  wipe(0);\n  ink(255, 0, 0).box(10, 10, 50, 50);\n}\n',
            },
          },
          response: { status: 201, body: published('red-box', `${baseUrl}/red-box`) },
        },
      ],
      notes: [
        'Exports are read from the module itself: comments and strings do not count; a syntax error answers 400 PIECE_SYNTAX with line and column.',
      ],
    },
    {
      name: 'Track media',
      operationId: 'trackMedia',
      method: 'POST',
      path: '/api/track-media',
      aliases: ['/api/track-tape'],
      description:
        'Registers a file already uploaded to the service storage (a painting, piece or tape) and returns its short code.',
      authentication: 'optional',
      ...bodyOperation(trackMedia, 'ok', {
        descriptions: {
          slug: 'Storage key of the uploaded file: [<account>/]<yyyy>/<mm>/<dd>/<name>.<ext>, its extension equal to ext.',
          ext: 'Media type: png (painting), mjs/lisp/lua (piece), zip/mp4 (tape).',
          metadata: 'Optional; tapes only.',
          'metadata.totalDuration': `Tape duration in seconds, at most ${MAX_TAPE_SECONDS} (longer answers 400 TAPE_TOO_LONG).`,
          remixOf: REMIX_OF_DESCRIPTION,
        },
      }),
      response: {
        statuses: [200],
        description: '200 both times: cached tells whether the slug was already registered.',
        schema: trackMediaResponseSchema,
        descriptions: {
          ...publishResponseDescriptions,
          slug: 'The registered storage key.',
          cached: 'true when this slug was already registered.',
        },
      },
      errors: [
        'EXT_UNSUPPORTED',
        'SLUG_INVALID',
        'METADATA_INVALID',
        'TAPE_TOO_LONG',
        'MEDIA_NOT_FOUND',
        'ITEM_NOT_FOUND',
        'ITEM_REMOVED',
        'INSUFFICIENT_SCOPE',
        'STORAGE_UNAVAILABLE',
        ...POST_ERRORS,
      ],
      examples: [
        {
          title: 'Register an uploaded painting',
          request: {
            method: 'POST',
            path: '/api/track-media',
            body: { slug: '2026/08/03/sunset.png', ext: 'png' },
          },
          response: {
            status: 200,
            body: {
              code: 'w3d',
              slug: '2026/08/03/sunset.png',
              url: `${baseUrl}/w3d`,
              cached: false,
            },
          },
        },
      ],
      notes: [
        `ext is one of ${MEDIA_EXTS.join(', ')}.`,
        'Upload the file to storage first (credentials come from the administrators); a missing object answers 404 MEDIA_NOT_FOUND.',
        "A slug shaped <yyyy>/<mm>/<dd>/<file>.<ext> is the guest space, which anyone may register; a slug under an account's folder (<account>/<yyyy>/...) only with that account's token. Someone else's folder answers 404 MEDIA_NOT_FOUND, exactly as a missing object does.",
        `Tapes longer than ${MAX_TAPE_SECONDS} seconds answer 400 TAPE_TOO_LONG with maxDuration: ${MAX_TAPE_SECONDS}.`,
      ],
    },
  ];
}
