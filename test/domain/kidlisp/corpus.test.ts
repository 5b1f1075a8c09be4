import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';

// Pieces published on the reference deployment, which its runtime plays (copied here as they are).
const PUBLISHED = [
  'black, ink (? yellow black) 48, line, scroll 1\nbake, ink (? magenta erase) 64, line, scroll -1',
  'black\nflood ? ?\nscroll (2s... 1 0 -1) (3s... -1 0 1)\n(0.3s (ink (? white black)) (repeat 30 point))',
  'stamp #dml 270 280 1.2 20\nzoom (.25s... .8 ?)\nwrite (.25s... "dog" "god") 160 h/2 zebra\nfps',
  'wipe brown\n(2s... ((line) (line)) (box 0 0 25 25))',
  '(3s... ($neio 0 0 w h/2)\n($pif 0 h/2 w h/2))\n(blur 4)\n;(1s (zoom 0.5))',
  '(wipe fade:zebra-zebra-zebra-rainbow:frame*2)',
  '(melody adedf 170)',
  '(melody d.d..d.e..g..e.h..e.f..e.fd. 500)',
  '($39i 0 0 w h 128)\n($r2f 0 0 w h 128)\n(contrast 1.5)',
  '(wipe navy)\n(tap (ink red) (circle penx peny 10))\n(draw (line penx peny (+ penx dx) (+ peny dy)))\n(def count 0)\n(now count (+ count 1))\n(if (> count 10) (wipe black))',
];

describe('published pieces', () => {
  it.each(PUBLISHED)('accepts %j without complaints about its words', (source) => {
    const preview = previewKidlisp(source);
    expect(preview.errors).toEqual([]);
    expect(preview.warnings.filter((warning) => !warning.startsWith('No background'))).toEqual([]);
  });

  it('lists the embeds of a piece built from other pieces', () => {
    expect(previewKidlisp(PUBLISHED[4] ?? '').stats.embeds).toEqual(['$neio', '$pif']);
  });

  it('accepts the unclosed corpus piece (Butterfly with a warning, as the runtime closes it', () => {
    const preview = previewKidlisp('(Butterfly');
    expect(preview.errors).toEqual([]);
    expect(preview.warnings).toContain(
      "'(' at line 1, column 1 is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends",
    );
    expect(preview.warnings).toContain(
      "Unknown word 'Butterfly' at line 1, column 2: not a built-in, color or defined name",
    );
  });
});
