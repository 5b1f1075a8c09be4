import {
  CLOCK_MAX,
  KIDLISP_MAX,
  PIECE_MAX,
  publishClock,
  publishClockInput,
  publishKidlisp,
  publishKidlispInput,
  publishPiece,
  publishPieceInput,
  trackMedia,
  trackMediaInput,
  type PublishResult,
  type TrackMediaResult,
} from '../operations/publish/index.js';
import { MAX_TAPE_SECONDS, MEDIA_EXTS } from '../domain/media.js';
import { builder, count, validated } from './builder.js';

const Published = builder.objectRef<PublishResult>('Published').implement({
  description: 'A published item: its short code, its URL and whether the content already existed.',
  fields: (t) => ({
    code: t.exposeString('code'),
    url: t.exposeString('url'),
    cached: t.exposeBoolean('cached', {
      description: 'true when the same content was already published (deduplication).',
    }),
  }),
});

const TrackedMedia = builder.objectRef<TrackMediaResult>('TrackedMedia').implement({
  description: 'A registered media file.',
  fields: (t) => ({
    code: t.exposeString('code'),
    slug: t.exposeString('slug'),
    url: t.exposeString('url'),
    cached: t.exposeBoolean('cached', {
      description: 'true when this slug was already registered.',
    }),
  }),
});

const MediaExt = builder.enumType('MediaExt', { values: MEDIA_EXTS });

const MediaMetadata = builder.inputType('MediaMetadata', {
  fields: (t) => ({
    totalDuration: t.float({
      description: `Tape duration in seconds (tapes only; at most ${MAX_TAPE_SECONDS}).`,
    }),
  }),
});

builder.mutationFields((t) => ({
  publishKidlisp: t.field({
    type: Published,
    description: `Publishes KidLisp source (at most ${count(KIDLISP_MAX)} characters).`,
    args: { source: t.arg.string({ required: true }) },
    validate: { schema: publishKidlispInput },
    resolve: (_root, args, ctx) => publishKidlisp(ctx, validated(publishKidlispInput, args)),
  }),
  publishClock: t.field({
    type: Published,
    description: `Publishes a clock melody (at most ${count(CLOCK_MAX)} characters).`,
    args: { source: t.arg.string({ required: true }) },
    validate: { schema: publishClockInput },
    resolve: (_root, args, ctx) => publishClock(ctx, validated(publishClockInput, args)),
  }),
  publishPiece: t.field({
    type: Published,
    description: `Publishes a JavaScript piece (at most ${count(PIECE_MAX)} characters) exporting boot, paint, sim or act, or a default.`,
    args: { source: t.arg.string({ required: true }), name: t.arg.string() },
    validate: { schema: publishPieceInput },
    resolve: (_root, args, ctx) => publishPiece(ctx, validated(publishPieceInput, args)),
  }),
  trackMedia: t.field({
    type: TrackedMedia,
    description:
      'Registers a file already uploaded to storage at `slug` (<yyyy>/<mm>/<dd>/<name>.<ext>).',
    args: {
      slug: t.arg.string({ required: true }),
      ext: t.arg({ type: MediaExt, required: true }),
      metadata: t.arg({ type: MediaMetadata }),
    },
    validate: { schema: trackMediaInput },
    resolve: (_root, args, ctx) => trackMedia(ctx, validated(trackMediaInput, args)),
  }),
}));
