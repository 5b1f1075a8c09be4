import { z } from 'zod';
import { KIDLISP_MAX_LENGTH } from '../../domain/kidlisp/index.js';
import { checkMediaSlug, isTape, MAX_TAPE_SECONDS, MEDIA_EXTS } from '../../domain/media.js';
import { MELODY_MAX_LENGTH } from '../../domain/melody/index.js';
import { remixOfField } from '../lineage/remix-of-field.js';
import { failWith, sourceField } from '../validation.js';

export const KIDLISP_MAX = KIDLISP_MAX_LENGTH;
export const CLOCK_MAX = MELODY_MAX_LENGTH;
export const PIECE_MAX = 100_000;
export const NAME_MAX = 200;

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

export const publishKidlispInput = z.object({
  source: sourceField(KIDLISP_MAX),
  remixOf: remixOfField,
});

/** `melody` is the legacy name of `source`; when both are sent, `source` wins. */
export const publishClockInput = z.preprocess(
  (value) => {
    const body = asObject(value);
    return body ? { source: body.source ?? body.melody, remixOf: body.remixOf } : value;
  },
  z.object({ source: sourceField(CLOCK_MAX), remixOf: remixOfField }),
);

/** C0, DEL and C1 controls, and the bidirectional marks, embeddings, overrides and isolates. */
const UNSAFE_NAME_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export const publishPieceInput = z.object({
  source: sourceField(PIECE_MAX),
  name: z
    .string({ error: 'name must be a string.' })
    .max(NAME_MAX, `name is longer than ${NAME_MAX} characters.`)
    .superRefine((name, ctx) => {
      const found = UNSAFE_NAME_CHARACTER.exec(name)?.[0];
      if (found === undefined) return;
      const codePoint = `U+${(found.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
      failWith(
        ctx,
        'NAME_UNSAFE_CHARACTERS',
        `name contains a control or bidirectional-formatting character (${codePoint}).`,
        { field: 'name', character: codePoint },
      );
    })
    .nullish()
    .transform((name) => name ?? undefined),
  remixOf: remixOfField,
});

export const trackMediaInput = z
  .object({
    slug: z.string({
      error: (issue) =>
        issue.input === undefined ? 'slug is required.' : 'slug must be a string.',
    }),
    ext: z.enum(MEDIA_EXTS, { error: `ext must be one of ${MEDIA_EXTS.join(', ')}.` }),
    metadata: z
      .object({
        totalDuration: z
          .number({ error: 'metadata.totalDuration must be a number of seconds.' })
          .finite()
          .min(0, 'metadata.totalDuration must not be negative.')
          .optional(),
      })
      .nullish()
      .transform((metadata) => metadata ?? undefined),
    remixOf: remixOfField,
  })
  .superRefine((input, ctx) => {
    const slug = checkMediaSlug(input.slug, input.ext);
    if (!slug.ok) failWith(ctx, 'SLUG_INVALID', slug.message);
    const duration = input.metadata?.totalDuration;
    if (duration === undefined) return;
    if (!isTape(input.ext)) {
      failWith(ctx, 'METADATA_INVALID', 'metadata.totalDuration applies to tapes (zip, mp4) only.');
    } else if (duration > MAX_TAPE_SECONDS) {
      failWith(
        ctx,
        'TAPE_TOO_LONG',
        `Tape duration ${duration}s exceeds the maximum of ${MAX_TAPE_SECONDS}s.`,
        {
          maxDuration: MAX_TAPE_SECONDS,
        },
      );
    }
  });

export type PublishKidlispInput = z.output<typeof publishKidlispInput>;
export type PublishClockInput = z.output<typeof publishClockInput>;
export type PublishPieceInput = z.output<typeof publishPieceInput>;
export type TrackMediaInput = z.output<typeof trackMediaInput>;
