/**
 * The reference deployment's 100 most-viewed KidLisp works, as its conformance list has them
 * (top100.json here: code, source and SHA-256 of each piece and of the three embeds they use that
 * are not in the list, copied from whistlegraph/aesthetic-computer kidlisp/conformance/top100.json
 * at commit 27742fb6). Every one runs for 60 frames with its embeds, and the viewer names no word
 * as not drawn: the words this runtime lacks are not used by any of them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveEmbeds } from '../../../src/domain/kidlisp/embed-closure.js';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';
import { renderFrames } from '../../../src/domain/kidlisp/render/frames.js';

interface Piece {
  code: string;
  sha256: string;
  source: string;
}

const fixture = JSON.parse(
  readFileSync(fileURLToPath(new URL('top100.json', import.meta.url)), 'utf8'),
) as { pieces: Piece[]; dependencies: Record<string, Piece> };
const everyPiece = [...fixture.pieces, ...Object.values(fixture.dependencies)];
const sources = new Map(everyPiece.map((piece) => [piece.code, piece.source]));

/** Words the authors typed that no KidLisp runtime knows (the reference's neither). */
const TYPOS: Record<string, string[]> = {
  rzo: ['lisy', 'list'],
  h6g: ['Butterfly'],
  qkn: ['Butterfly'],
  mpl: ['samp'],
};

describe("the reference's 100 most-viewed works", () => {
  it('are the list as published: 100 pieces, each source matching its SHA-256', () => {
    expect(fixture.pieces).toHaveLength(100);
    for (const piece of everyPiece) {
      const digest = createHash('sha256').update(piece.source).digest('hex');
      expect(digest, piece.code).toBe(piece.sha256);
    }
  });

  it.each(fixture.pieces)('$code runs 60 frames with nothing named as not drawn', async (piece) => {
    expect(previewKidlisp(piece.source).stats.not_drawn).toEqual([]);
    const embeds = await resolveEmbeds(piece.source, async (code) => sources.get(code) ?? null);
    const { report } = renderFrames({
      source: piece.source,
      width: 64,
      height: 64,
      frames: 60,
      seed: 1,
      embeds,
    });
    expect(report.unsupported).toEqual([]);
    expect(report.unknown).toEqual(TYPOS[piece.code] ?? []);
    // The list carries no paintings (#dml, #48q ...): here they are missing, and said so.
    const others = report.problems.filter(
      (problem) => !/no painting is published under this code|'\)' missing/.test(problem),
    );
    expect(others).toEqual([]);
  });
});
