import { previewKidlisp, type KidlispPreview } from '../../domain/kidlisp/index.js';
import type { StoredObject } from '../../storage/index.js';
import type { RequestContext } from '../../context.js';
import { isCodeShaped } from './item.js';

/** A published item of the shared namespace (contract section 2), as a viewer page shows it. */
export type PublishedItem =
  | { kind: 'kidlisp'; code: string; when: Date; source: string }
  | {
      kind: 'piece';
      code: string;
      when: Date;
      name?: string;
      ext: 'mjs' | 'lisp' | 'lua';
      key: string;
      source?: string;
    }
  | { kind: 'painting'; code: string; when: Date; key: string }
  | {
      kind: 'tape';
      code: string;
      when: Date;
      key: string;
      format: 'zip' | 'mp4';
      totalDuration?: number;
    };

export type PublishedKind = PublishedItem['kind'];

/** A KidLisp item with the validator's preview, for its page (a raw .lisp file needs none). */
export type KidlispView = Extract<PublishedItem, { kind: 'kidlisp' }> & { preview: KidlispPreview };

export const withPreview = (item: Extract<PublishedItem, { kind: 'kidlisp' }>): KidlispView => ({
  ...item,
  preview: previewKidlisp(item.source),
});

export { isCodeShaped } from './item.js';

const pieceExt = (ext: string | undefined): 'mjs' | 'lisp' | 'lua' =>
  ext === 'lisp' || ext === 'lua' ? ext : 'mjs';

/** The extension of the item's raw file, `/<code>.<ext>`. */
export function rawExt(item: PublishedItem): string {
  switch (item.kind) {
    case 'kidlisp':
      return 'lisp';
    case 'piece':
      return item.ext;
    case 'painting':
      return 'png';
    case 'tape':
      return item.format;
  }
}

/** The kinds whose raw file can have this extension (none for any other extension). */
export function kindsWithRawExt(ext: string): PublishedKind[] {
  switch (ext) {
    case 'lisp':
      return ['kidlisp', 'piece'];
    case 'mjs':
    case 'lua':
      return ['piece'];
    case 'png':
      return ['painting'];
    case 'zip':
    case 'mp4':
      return ['tape'];
    default:
      return [];
  }
}

const ALL_KINDS: readonly PublishedKind[] = ['kidlisp', 'piece', 'painting', 'tape'];

/** Looks a code up in the collections of the given kinds (all four share the namespace). */
export async function findPublished(
  ctx: RequestContext,
  code: string,
  kinds: readonly PublishedKind[] = ALL_KINDS,
): Promise<PublishedItem | null> {
  if (!isCodeShaped(code) || kinds.length === 0) return null;
  const { db } = ctx.services;
  const lookup = <T>(kind: PublishedKind, find: () => Promise<T | null>) =>
    kinds.includes(kind) ? find() : null;
  const [kidlisp, piece, painting, tape] = await Promise.all([
    lookup('kidlisp', () => db.kidlisp.findOne({ code })),
    lookup('piece', () => db.pieces.findOne({ code })),
    lookup('painting', () => db.paintings.findOne({ code })),
    lookup('tape', () => db.tapes.findOne({ code })),
  ]);
  if (kidlisp) return { kind: 'kidlisp', code, when: kidlisp.when, source: kidlisp.source };
  if (piece) {
    const ext = pieceExt(piece.ext);
    // store-piece records keep the key without its extension; track-media records keep the whole key.
    const key = piece.ext ? piece.slug : `${piece.slug}.mjs`;
    return {
      kind: 'piece',
      code,
      when: piece.when,
      ext,
      key,
      ...(piece.name ? { name: piece.name } : {}),
      ...(piece.source ? { source: piece.source } : {}),
    };
  }
  if (painting) return { kind: 'painting', code, when: painting.when, key: painting.slug };
  if (tape) {
    const duration = tape.totalDuration === undefined ? {} : { totalDuration: tape.totalDuration };
    return { kind: 'tape', code, when: tape.when, key: tape.slug, format: tape.kind, ...duration };
  }
  return null;
}

/** The item's file in object storage; null when it is missing there. */
export async function readPublishedFile(
  ctx: RequestContext,
  item: Exclude<PublishedItem, { kind: 'kidlisp' }>,
): Promise<StoredObject | null> {
  return ctx.services.storage.get(item.key);
}

/** A piece's source text: the stored module, or the record's copy when storage has lost it. */
export async function pieceSource(
  ctx: RequestContext,
  item: Extract<PublishedItem, { kind: 'piece' }>,
): Promise<string | null> {
  const stored = await readPublishedFile(ctx, item).catch(() => null);
  return stored ? stored.body.toString('utf8') : (item.source ?? null);
}
