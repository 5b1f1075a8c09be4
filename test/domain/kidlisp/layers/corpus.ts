import type { PixelBlock } from '../../../../src/domain/kidlisp/runtime/index.js';

/**
 * A painting drawn by code, so the fixtures need no image file: a disc, red to yellow from left
 * to right, opaque inside two thirds of its radius and half transparent beyond, transparent
 * outside it. `size` pixels square.
 */
export function testPainting(size: number): PixelBlock {
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const distance = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2);
      if (distance >= size / 2) continue;
      data[i] = 255;
      data[i + 1] = (x * 255) / size;
      data[i + 2] = 40;
      data[i + 3] = distance < size / 3 ? 255 : 128;
    }
  }
  return { width: size, height: size, data };
}

/** The paintings the fixtures stamp: #dml (24 pixels), #o2d (40) and #48q (64); #nope is none. */
export const PAINTINGS: Record<string, PixelBlock> = {
  dml: testPainting(24),
  o2d: testPainting(40),
  '48q': testPainting(64),
};

/** Programs for the layer and painting words, drawn at `size` (64 unless said), seed 7, frames 0 to 3. */
export const layerCorpus: { name: string; source: string; size?: number }[] = [
  {
    name: 'bake-layers',
    source:
      '(wipe navy) (ink yellow) (box 4 4 20 20) (scroll 1)\n(bake) (ink red 160) (circle 40 40 10) (scroll 0 1)\n(bake) (ink erase) (line 0 0 63 63)',
  },
  {
    name: 'burn',
    source:
      'black, ink lime, box 8 8 24 24\nbake, ink magenta 128, box 24 24 30 30\nburn, blur 2, contrast 1.2',
  },
  {
    name: 'stamp-paste',
    source:
      '(wipe 30 30 60) (stamp #dml) (stamp #o2d 10 10 0.5 45) (paste #48q 40 4 0.25) (paste #dml 36 36 1.5) (painting #48q 0 44 0.25)',
  },
  {
    name: 'bare-code',
    source: 'white\n#dml\n(#48q 12 52 0.5 30)\n#nope',
  },
  {
    // $87a by @fifi, the reference's fourth most-viewed bake + stamp work, as published
    // (whistlegraph/aesthetic-computer kidlisp/conformance/top100.json); its paintings here are
    // the test disc above.
    name: '87a',
    size: 256,
    source:
      'fade:lightsteelblue-pink-lightgreen:vertical\nspin -10 \nscroll frame -5\nscroll width/5 frame\nblur 2\nbake\nstamp #dml 270 280 1.2 20\nblur (1s... 1 2)\nzoom (.25s... .8 ?)\nspin -10\nbake\nstamp #o2d 190 h/2 1.3 \nblur 2 \nzoom (.25s... .7 ?) \nbake\nwrite (.25s... "dog" "god") 160 h/2 zebra\nfps 24\nstamp #dml 60 80 .8 170\nblur 2',
  },
  {
    // $c4x by @fifi (same source file): a stamp, a bare #code and two bakes.
    name: 'c4x',
    size: 256,
    source:
      'white\nstamp #48q 150 150 1\nscroll frame 12\n#e8j\nblur 2\nbake\nzoom (.5s... .5 1 ?)\nscroll width/2 5\nblur 2\nspin -3\nfps 24\nbake\nwrite "miracle mindset" 150 153 white\nscroll width/2\nzoom (1s... 2 .7 ?)\nspin -3',
  },
  {
    // $4bb by @jeffrey (same source file): three bakes and a burn.
    name: '4bb',
    source:
      'black, ink (? yellow black) 48, line, scroll 1\nbake, ink (? magenta erase) 64, line, scroll -1\nbake, ink (? lime erase) 16, line, scroll 0 1\nbake, ink (? cyan erase) 48, line, scroll 0 -1\nburn, blur 8, contrast 1.25',
  },
];
