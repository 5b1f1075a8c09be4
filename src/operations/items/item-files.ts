import type { RequestContext } from '../../context.js';
import { type KidlispPreview, previewKidlisp } from '../../domain/kidlisp/index.js';
import type { StoredObject } from '../../storage/index.js';
import type { Item, SharedKind } from './item.js';

/**
 * What the viewer pages read of an item beyond its facts: its raw file (`/<code>.<ext>`), the
 * stored object behind it, and a KidLisp program's preview.
 */

/** The extension of the item's raw file, `/<code>.<ext>`: lisp for KidLisp, else its stored file's. */
export const rawExtOf = (item: Item<SharedKind>): string =>
  item.kind === 'kidlisp' ? 'lisp' : (item.ext ?? '');

/** The kinds whose raw file can have this extension (none for any other extension). */
export function kindsWithRawExt(ext: string): SharedKind[] {
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

/** The item's file in object storage; null when it has none or storage has lost it. */
export async function readItemFile(ctx: RequestContext, item: Item): Promise<StoredObject | null> {
  return item.storageKey === null ? null : ctx.services.storage.get(item.storageKey);
}

/** A piece's source text: the stored module, or the record's copy when storage has lost it. */
export async function pieceSource(
  ctx: RequestContext,
  item: Item<'piece'>,
): Promise<string | null> {
  const stored = await readItemFile(ctx, item).catch(() => null);
  return stored ? stored.body.toString('utf8') : item.source || null;
}

/** A KidLisp item with its source and the validator's preview, for its page. */
export type KidlispView = Item<'kidlisp'> & { source: string; preview: KidlispPreview };

export const withPreview = (item: Item<'kidlisp'>): KidlispView => {
  const source = item.source ?? '';
  return { ...item, source, preview: previewKidlisp(source) };
};
