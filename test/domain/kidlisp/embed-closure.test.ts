import { describe, expect, it } from 'vitest';
import { embedCodesOf, resolveEmbeds } from '../../../src/domain/kidlisp/embed-closure.js';
import { renderFrames } from '../../../src/domain/kidlisp/render/frames.js';

const pixel = (rgba: Uint8ClampedArray, width: number, x: number, y: number) => [
  ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
];

describe('the embeds a program draws, found before it runs', () => {
  it('lists each $code once, in order, whatever form it stands in, and never from a comment or string', () => {
    const source =
      '($pie 0 0 w/2 h)\n$bop\n(embed $pie)\n(3s... ($neio 0 0 w h) $pif:2)\n; $nope\n(write "$nah")';
    expect(embedCodesOf(source)).toEqual(['pie', 'bop', 'neio', 'pif']);
  });

  it('loads embeds of embeds three levels down, each code once, a missing one as null', async () => {
    const published: Record<string, string> = {
      one: '$two',
      two: '($tri 0 0 4 4)',
      tri: '($for) ($one)',
      for: '$fiv',
      fiv: '(wipe red)',
    };
    const asked: string[] = [];
    const sources = await resolveEmbeds('($one) ($zzz)', async (code) => {
      asked.push(code);
      return published[code] ?? null;
    });
    expect(sources).toEqual({
      one: '$two',
      zzz: null,
      two: '($tri 0 0 4 4)',
      tri: '($for) ($one)',
    });
    expect(asked.sort()).toEqual(['one', 'tri', 'two', 'zzz']);
  });

  it("draws a resolved embed from the first frame, as the page's player does once it has loaded it", () => {
    const { frames, report } = renderFrames({
      source: '(wipe black)\n($red 0 0 8 8)',
      width: 16,
      height: 16,
      frames: 1,
      embeds: { red: '(wipe red)' },
    });
    const rgba = (frames[0] as { rgba: Uint8ClampedArray }).rgba;
    expect(pixel(rgba, 16, 2, 2)).toEqual([255, 0, 0, 255]);
    expect(pixel(rgba, 16, 12, 12)).toEqual([0, 0, 0, 255]);
    expect(report.unsupported).toEqual([]);
  });

  it('names a code nothing is published under, and a program that embeds itself, and draws the rest', () => {
    const { report } = renderFrames({
      source: '(wipe black) ($gone 0 0 4 4) ($loop 4 4 4 4)',
      width: 8,
      height: 8,
      frames: 2,
      embeds: { gone: null, loop: '($loop)' },
    });
    expect(report.problems).toEqual(
      expect.arrayContaining([
        '$gone was not found; that embed is not drawn',
        expect.stringContaining('$loop embeds itself'),
      ]),
    );
  });

  it('without resolved embeds (no database), names them as not available here', () => {
    const { report } = renderFrames({
      source: '(wipe black) ($red)',
      width: 4,
      height: 4,
      frames: 1,
    });
    expect(report.unsupported).toEqual(['$red (embeds are not available here)']);
  });
});
