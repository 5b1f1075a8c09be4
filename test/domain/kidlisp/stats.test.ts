import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/domain/kidlisp/index.js';

const statsOf = (source: string) => previewKidlisp(source).stats;

describe('stats', () => {
  it('counts written and implied forms as expressions', () => {
    expect(statsOf('purple, ink, line, blur 5').expressions).toBe(4);
    expect(statsOf('(wipe red)\n(repeat 3 (line) (box))').expressions).toBe(4);
    expect(statsOf('black\nink red\nline 0 0 w h').expressions).toBe(3);
  });

  it('lists each called word once, sorted, without the backdrop, strings or comments', () => {
    expect(
      statsOf('black\n(ink red) (line) (ink blue)\n(write "box" 0 0) ; (circle)').functions_used,
    ).toEqual(['ink', 'line', 'write']);
  });

  it('lists built-ins called bare in comma segments and lines', () => {
    expect(statsOf('purple, ink, line, blur 5').functions_used).toEqual(['blur', 'ink', 'line']);
    expect(statsOf('fade:red-blue\nink red\nline w/2 0 w/2 h').functions_used).toEqual([
      'ink',
      'line',
    ]);
  });

  it('lists the name a head calls without its colon parameter', () => {
    expect(statsOf('(wipe black) (cube:0)').functions_used).toEqual(['cube', 'wipe']);
  });

  it.each([
    ['(wipe red) (1s (line))', true],
    ['(wipe red) (ink (2s... red blue))', true],
    ['(wipe red) (wiggle 3)', true],
    ['(wipe red) (smoothspin 1)', true],
    ['(wipe red) (zoom 1.1)', true],
    ['(wipe red) (line) (box)', false],
    ['(wipe red) (write "1s" 0 0)', false],
  ])('has_animation of %j is %s', (source, expected) => {
    expect(statsOf(source).has_animation).toBe(expected);
  });

  it.each([
    ['(wipe red) (tap (ink blue))', true],
    ['(wipe red) (draw (line))', true],
    ['(wipe red) (lift (wipe red))', true],
    ['(wipe red) (line) ; (tap)', false],
  ])('has_interaction of %j is %s', (source, expected) => {
    expect(statsOf(source).has_interaction).toBe(expected);
  });

  it('counts lines as an editor shows them', () => {
    expect(statsOf('(wipe red)').lines).toBe(1);
    expect(statsOf('(wipe red)\n\n(line)\n').lines).toBe(4);
    expect(statsOf('(wipe red)\r\n(line)').lines).toBe(2);
  });

  it('lists embedded $codes once each, sorted', () => {
    expect(
      statsOf('($r2f 0 0 w h 128)\n($39i 0 0 w h 128)\n(cache $39i)\n(embed $pie:24 0 0)').embeds,
    ).toEqual(['$39i', '$pie', '$r2f']);
  });

  it('lists timing words as written, once each, sorted', () => {
    expect(
      statsOf('(wipe red)\n(1s (line))\n(0.3s (zoom 0.5))\n(ink (2s... red blue))\n(1s (box))')
        .timing_words,
    ).toEqual(['0.3s', '1s', '2s...']);
  });

  it('lists the words the runtime would not draw (not #code paintings, which it draws), once each, sorted, wherever they stand', () => {
    expect(
      statsOf(
        '(wipe red) (once noise) (line beat 0 9 9)\n(melody "cde") #abc (cube:0)\njump ? ?\n(noise)',
      ).not_drawn,
    ).toEqual(['beat', 'cube', 'jump']);
  });

  it('does not list drawn words, fades, colors, strings, comments or user names', () => {
    expect(
      statsOf(
        '(wipe fade:red-blue:vertical)\n(def noisy 1)\n(box 0 0 9 9 outline:3) (write "noise" 0 0) ; (melody)\n(ink red) (spin frame)',
      ).not_drawn,
    ).toEqual([]);
  });

  it('reports empty stats for empty source', () => {
    expect(statsOf('')).toEqual({
      expressions: 0,
      functions_used: [],
      has_animation: false,
      has_interaction: false,
      has_wipe: false,
      lines: 1,
      embeds: [],
      timing_words: [],
      not_drawn: [],
    });
  });
});

describe('layout', () => {
  it('does not wrap a line that continues a form the line before left open', () => {
    const preview = previewKidlisp('(wipe red)\n(later blob x\n  scrl x (box x x 4 4))\n(blob 3)');
    expect(preview.warnings).toEqual([]);
    expect(preview.stats.functions_used).toEqual(['blob', 'box', 'later', 'wipe']);
  });

  it('wraps a line after a balanced line even inside an open form', () => {
    const preview = previewKidlisp('(wipe red)\n(repeat 10 i\n(ink red)\nline 0 i w i)');
    expect(preview.errors).toEqual([]);
    expect(preview.stats.functions_used).toEqual(['ink', 'line', 'repeat', 'wipe']);
  });

  it('leaves lines starting with a $code, #code or number unwrapped', () => {
    const preview = previewKidlisp('(wipe red)\n$roz\n#dml\n255 0 0');
    expect(preview.warnings).toEqual([]);
    expect(preview.stats.expressions).toBe(1);
  });

  it('treats commas inside strings as text', () => {
    expect(previewKidlisp('black, write "a, b" 0 0, line').stats.functions_used).toEqual([
      'line',
      'write',
    ]);
  });

  it('gives every diagnostic the position its sentence names', () => {
    const preview = previewKidlisp(
      '(box 1 1)\n  (scrl 5) (def my-x 1)\n(ink #ff0000))\n(5f (line))',
    );
    expect(preview.diagnostics.length).toBeGreaterThan(4);
    for (const diagnostic of preview.diagnostics) {
      expect(diagnostic.message).toContain(`line ${diagnostic.line}, column ${diagnostic.column}`);
    }
    expect(preview.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual(
      preview.errors,
    );
    expect(
      preview.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
    ).toEqual(preview.warnings);
  });

  it('shows at most 100 errors and says how many more there are', () => {
    const preview = previewKidlisp(`(wipe red)${')'.repeat(250)}`);
    expect(preview.errors).toHaveLength(101);
    expect(preview.errors[100]).toBe(
      '150 more errors not shown (the next one is at line 1, column 111)',
    );
  });
});
