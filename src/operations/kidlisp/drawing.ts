import type { RequestContext } from '../../context.js';
import { resolveEmbeds } from '../../domain/kidlisp/embed-closure.js';
import { loadCode } from '../items/loaders.js';
import type { Drawing } from './frame-renderer.js';
import { paintingFilesOf } from './paintings.js';

/**
 * A program with its `$code` embeds (by the player's rules: embed-closure.ts) and the `#code`
 * paintings it and its embeds stamp, read from the database and storage before it is drawn.
 */
export async function drawingOf(ctx: RequestContext, source: string): Promise<Drawing> {
  const embeds = await resolveEmbeds(source, async (code) => {
    const item = await loadCode(ctx, code, ['kidlisp']);
    return item ? (item.source ?? '') : null;
  });
  const sources = [source, ...Object.values(embeds).filter((text) => text !== null)];
  const paintings = await paintingFilesOf(ctx, sources.join('\n'));
  return { source, embeds, paintings };
}
