/**
 * The `$code` embeds a program draws, found before it runs, so that every surface (the player,
 * thumbnails, share images, render_kidlisp, `kidlisp render`) loads them first and draws them from
 * the frame that first reaches them: the same bytes everywhere, whatever the loading takes.
 */
import { tokenize } from './tokenizer.js';
import { isEmbedCode, withoutColonParameter } from './words.js';

/** How deep embeds nest inside embeds (the runtime's default `maxEmbedDepth`). */
export const EMBED_DEPTH = 3;
/** Programs loaded for one render at most; codes past it are drawn as missing. */
export const MAX_EMBEDDED_PROGRAMS = 32;

/** Sources by code (without `$`); null for a code nothing is published under. */
export type EmbedSources = Record<string, string | null>;

/** The `$code` words of a program, without the `$`, once each, in order of first appearance. */
export function embedCodesOf(source: string): string[] {
  const codes = new Set<string>();
  for (const token of tokenize(source).tokens) {
    if (token.kind !== 'word') continue;
    const word = withoutColonParameter(token.text);
    if (isEmbedCode(word)) codes.add(word.slice(1));
  }
  return [...codes];
}

/**
 * Loads the embeds of `source`, and theirs, `depth` levels down, each code once; `load` answers a
 * code's source or null. What the runtime would refuse (a cycle) is loaded all the same and refused
 * by the runtime, which says why in its report.
 */
export async function resolveEmbeds(
  source: string,
  load: (code: string) => Promise<string | null>,
  depth = EMBED_DEPTH,
): Promise<EmbedSources> {
  const sources: EmbedSources = {};
  let level = [source];
  for (let down = 0; down < depth && level.length > 0; down++) {
    const codes = level
      .flatMap(embedCodesOf)
      .filter((code) => !Object.hasOwn(sources, code))
      .filter((code, index, all) => all.indexOf(code) === index)
      .slice(0, MAX_EMBEDDED_PROGRAMS - Object.keys(sources).length);
    const loaded = await Promise.all(codes.map((code) => load(code).catch(() => null)));
    codes.forEach((code, index) => {
      sources[code] = loaded[index] ?? null;
    });
    level = loaded.filter((text) => typeof text === 'string');
  }
  return sources;
}

/** A loader that answers at once from resolved sources (a code not among them: not found). */
export const embedsFrom =
  (sources: EmbedSources) =>
  (code: string): string | null =>
    Object.hasOwn(sources, code) ? (sources[code] ?? null) : null;
