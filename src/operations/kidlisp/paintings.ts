import type { RequestContext } from '../../context.js';
import { isPaintingCode } from '../../domain/kidlisp/words.js';
import { readItemFile } from '../items/item-files.js';
import { loadCode } from '../items/loaders.js';
import type { PaintingFile } from './frame-renderer.js';

/** Paintings read for one program at most; further codes are drawn as missing. */
const MAX_PAINTINGS = 16;

/** The `#code` paintings a program names, once each, in order of first appearance. */
export function paintingCodesOf(source: string): string[] {
  const codes = new Set<string>();
  for (const [word] of source.matchAll(/#[0-9A-Za-z]+/g)) {
    if (codes.size >= MAX_PAINTINGS) break;
    if (isPaintingCode(word)) codes.add(word.slice(1));
  }
  return [...codes];
}

/**
 * The stored PNG of each painting the program names that exists (read only when the renderer
 * has not decoded it already); a code with no painting is left out, and the runtime names it in
 * its report.
 */
export async function paintingFilesOf(
  ctx: RequestContext,
  source: string,
): Promise<PaintingFile[]> {
  const found = await Promise.all(
    paintingCodesOf(source).map(async (code): Promise<PaintingFile | null> => {
      const item = await loadCode(ctx, code, ['painting']);
      if (item === null || item.storageKey === null) return null;
      return {
        code,
        key: item.storageKey,
        read: async () => (await readItemFile(ctx, item))?.body ?? null,
      };
    }),
  );
  return found.filter((file) => file !== null);
}
