import { previewKidlisp, type KidlispPreview } from '../domain/kidlisp/index.js';
import type { StoredObject } from '../storage/index.js';
import type { RequestContext } from './context.js';

type ViewContext = Pick<RequestContext, 'services'>;

/** A published item of the shared namespace (contract section 2), as a viewer page shows it. */
export type PublishedItem =
  | { kind: 'kidlisp'; code: string; when: Date; source: string; preview: KidlispPreview }
  | { kind: 'piece'; code: string; when: Date; name?: string; ext: 'mjs' | 'lisp' | 'lua'; key: string; source?: string }
  | { kind: 'painting'; code: string; when: Date; key: string }
  | { kind: 'tape'; code: string; when: Date; key: string; format: 'zip' | 'mp4'; totalDuration?: number };

/** Codes as this service and the reference issue them; anything else is not looked up. */
export const isCodeShaped = (code: string) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(code);

const pieceExt = (ext: string | undefined): 'mjs' | 'lisp' | 'lua' => (ext === 'lisp' || ext === 'lua' ? ext : 'mjs');

/** Looks a code up in the four collections that share the namespace. */
export async function findPublished(ctx: ViewContext, code: string): Promise<PublishedItem | null> {
  if (!isCodeShaped(code)) return null;
  const { db } = ctx.services;
  const [kidlisp, piece, painting, tape] = await Promise.all([
    db.kidlisp.findOne({ code }),
    db.pieces.findOne({ code }),
    db.paintings.findOne({ code }),
    db.tapes.findOne({ code }),
  ]);
  if (kidlisp) return { kind: 'kidlisp', code, when: kidlisp.when, source: kidlisp.source, preview: previewKidlisp(kidlisp.source) };
  if (piece) {
    const ext = pieceExt(piece.ext);
    // store-piece records keep the key without its extension; track-media records keep the whole key.
    const key = piece.ext ? piece.slug : `${piece.slug}.mjs`;
    return { kind: 'piece', code, when: piece.when, ext, key, ...(piece.name ? { name: piece.name } : {}), ...(piece.source ? { source: piece.source } : {}) };
  }
  if (painting) return { kind: 'painting', code, when: painting.when, key: painting.slug };
  if (tape) {
    const duration = tape.totalDuration === undefined ? {} : { totalDuration: tape.totalDuration };
    return { kind: 'tape', code, when: tape.when, key: tape.slug, format: tape.kind, ...duration };
  }
  return null;
}

/** The item's file in object storage; null when it is missing there. */
export async function readPublishedFile(ctx: ViewContext, item: Exclude<PublishedItem, { kind: 'kidlisp' }>): Promise<StoredObject | null> {
  return ctx.services.storage.get(item.key);
}

/** A piece's source text: the stored module, or the record's copy when storage has lost it. */
export async function pieceSource(ctx: ViewContext, item: Extract<PublishedItem, { kind: 'piece' }>): Promise<string | null> {
  const stored = await readPublishedFile(ctx, item).catch(() => null);
  return stored ? stored.body.toString('utf8') : (item.source ?? null);
}
