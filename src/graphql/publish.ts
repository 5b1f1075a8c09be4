import { formatCount } from '../domain/format.js';
import { MAX_TAPE_SECONDS, MEDIA_EXTS } from '../domain/media.js';
import { REMIX_OF_DESCRIPTION } from '../operations/lineage/remix-of-field.js';
import { runOperation } from '../operations/operation.js';
import {
  CLOCK_MAX,
  KIDLISP_MAX,
  PIECE_MAX,
  type PublishResult,
  publishClock,
  publishKidlisp,
  publishPiece,
  type TrackMediaResult,
  trackMedia,
} from '../operations/publish/index.js';
import { builder } from './builder.js';

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
    description: `Publishes KidLisp source (at most ${formatCount(KIDLISP_MAX)} characters).`,
    args: {
      source: t.arg.string({ required: true }),
      remixOf: t.arg.string({ description: REMIX_OF_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) => runOperation(publishKidlisp, ctx, args),
  }),
  publishClock: t.field({
    type: Published,
    description: `Publishes a clock melody (at most ${formatCount(CLOCK_MAX)} characters).`,
    args: {
      source: t.arg.string({ required: true }),
      remixOf: t.arg.string({ description: REMIX_OF_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) => runOperation(publishClock, ctx, args),
  }),
  publishPiece: t.field({
    type: Published,
    description: `Publishes a JavaScript piece (at most ${formatCount(PIECE_MAX)} characters) exporting boot, paint, sim or act, or a default.`,
    args: {
      source: t.arg.string({ required: true }),
      name: t.arg.string(),
      remixOf: t.arg.string({ description: REMIX_OF_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) => runOperation(publishPiece, ctx, args),
  }),
  trackMedia: t.field({
    type: TrackedMedia,
    description:
      'Registers a file already uploaded to storage at `slug` (<yyyy>/<mm>/<dd>/<name>.<ext>).',
    args: {
      slug: t.arg.string({ required: true }),
      ext: t.arg({ type: MediaExt, required: true }),
      metadata: t.arg({ type: MediaMetadata }),
      remixOf: t.arg.string({ description: REMIX_OF_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) => runOperation(trackMedia, ctx, args),
  }),
}));
