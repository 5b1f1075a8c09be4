import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';

// docs/kidlisp.md, "Programs that must be accepted": blank lines separate the pieces.
const ACCEPTED_PIECES = [
  'purple, ink, line, blur 5',
  [
    '(fps 24)',
    '(0.25s (wipe (... red yellow blue)))',
    '(ink green)',
    '(line 0 height/2 width height/2)',
    '(scroll frame frame)',
  ].join('\n'),
  [
    'fade:red-blue-black-blue-red',
    'ink (? rainbow white 0) (1s... 24 64)',
    'line w/2 0 w/2 h',
    '(spin (2s... -1.125 1.125)) (zoom 1.1)',
  ].join('\n'),
  '(1s (coat fade:black-red-rainbow-red-black:frame 64)) (0.3s (zoom 0.5)) (scroll 1)',
  '($39i 0 0 w h 128)',
  '(later cross x y (line x-10 y-10 x+10 y+10))\n(cross 16 32)',
  '(repeat height i (ink rainbow) (line 0 i width i))',
  'blue',
];
const ACCEPTED_LINES = ACCEPTED_PIECES.flatMap((piece) => piece.split('\n'));

const EMPTY = 'Source is empty at line 1, column 1: write at least one form, e.g. (wipe blue)';

describe('programs kidlisp.md says must be accepted', () => {
  it.each(ACCEPTED_PIECES)('accepts %j', (source) => {
    const preview = previewKidlisp(source);
    expect(preview.errors).toEqual([]);
    expect(preview.valid).toBe(true);
  });

  it.each(ACCEPTED_LINES)('accepts the line %j on its own', (source) => {
    expect(previewKidlisp(source)).toMatchObject({ valid: true, errors: [] });
  });

  it('accepts the whole listing as one program', () => {
    expect(previewKidlisp(ACCEPTED_PIECES.join('\n\n'))).toMatchObject({ valid: true, errors: [] });
  });

  it('does not warn about words it knows in the accepted pieces', () => {
    for (const source of ACCEPTED_PIECES) {
      const warnings = previewKidlisp(source).warnings;
      expect(
        warnings.filter((warning) => /unknown|does not exist|reads as the number/i.test(warning)),
      ).toEqual([]);
    }
  });

  it('takes a leading color or fade as the background', () => {
    expect(previewKidlisp('purple, ink, line, blur 5').warnings).toEqual([]);
    expect(previewKidlisp(ACCEPTED_PIECES[2] ?? '').stats.has_wipe).toBe(true);
    expect(previewKidlisp('blue')).toMatchObject({ warnings: [], stats: { has_wipe: true } });
  });
});

describe('programs kidlisp.md says must be rejected', () => {
  it('rejects an empty source', () => {
    const preview = previewKidlisp('');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toEqual([EMPTY]);
  });

  it('rejects an unmatched paren at line 1, column 10', () => {
    const preview = previewKidlisp('(ink red))');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toHaveLength(1);
    expect(preview.errors[0]).toMatch(/^Unmatched '\)' at line 1, column 10/);
    expect(preview.diagnostics[0]).toMatchObject({ severity: 'error', line: 1, column: 10 });
  });

  it('rejects an unterminated string at its opening quote', () => {
    const preview = previewKidlisp('(write "hi 10 10)');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toContain(
      'Unterminated string at line 1, column 8: a string must close on the line where it starts',
    );
    expect(preview.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', line: 1, column: 8 }),
    );
  });

  it('rejects a dash in a def name and suggests an underscore', () => {
    const preview = previewKidlisp('(def my-var 10)');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toEqual([
      "Dash in the def name 'my-var' at line 1, column 6: a dash means subtraction, so the runtime ignores it; use 'my_var'",
    ]);
  });
});

describe('programs kidlisp.md says are valid with a warning', () => {
  it('accepts an unclosed paren with a warning at its position (the runtime closes it)', () => {
    const preview = previewKidlisp('(wipe blue');
    expect(preview).toMatchObject({ valid: true, errors: [] });
    expect(preview.warnings).toEqual([
      "'(' at line 1, column 1 is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends",
    ]);
    expect(preview.diagnostics[0]).toMatchObject({ severity: 'warning', line: 1, column: 1 });
  });

  it('warns about a missing background', () => {
    const preview = previewKidlisp('(box 10 10 20 20)');
    expect(preview.valid).toBe(true);
    expect(preview.warnings).toEqual([
      'No background at line 1, column 1: start with a color (black), a fade (fade:red-blue) or r g b, or call (wipe color)',
    ]);
  });

  it('warns about an unknown word', () => {
    const preview = previewKidlisp('(scrl 5)');
    expect(preview.valid).toBe(true);
    expect(preview.warnings).toContain(
      "Unknown word 'scrl' at line 1, column 2: not a built-in, color or defined name",
    );
  });

  it('warns about a repeat over the limit', () => {
    const preview = previewKidlisp('(repeat 20000 (line))');
    expect(preview.valid).toBe(true);
    expect(preview.warnings).toContain(
      "'repeat' at line 1, column 2 repeats 20000 times, over the limit of 10,000; the runtime skips it",
    );
  });

  it('warns about the wrong argument count', () => {
    const preview = previewKidlisp('(def x)');
    expect(preview.valid).toBe(true);
    expect(preview.warnings).toContain(
      "'def' at line 1, column 2 takes exactly 2 arguments (def name value), got 1; the runtime skips it",
    );
  });
});
