import { describe, expect, it } from 'vitest';
import { KIDLISP_MAX_LENGTH, previewKidlisp } from '../../../src/domain/kidlisp/index.js';

const EMPTY = 'Source is empty at line 1, column 1: write at least one form, e.g. (wipe blue)';

describe('errors', () => {
  it('rejects whitespace-only source as empty', () => {
    expect(previewKidlisp(' \n\t \r\n ')).toMatchObject({ valid: false, errors: [EMPTY] });
  });

  it('rejects source over 50,000 characters and says where the excess starts', () => {
    const source = `(wipe red)\n${'(line)'.repeat(9000)}`;
    const preview = previewKidlisp(source);
    expect(preview.valid).toBe(false);
    expect(preview.errors).toEqual([
      `Source is ${source.length.toLocaleString('en-US')} characters, over the limit of 50,000 (the excess starts at line 2, column 49990)`,
    ]);
    expect(preview.diagnostics[0]).toMatchObject({ line: 2, column: 49990 });
  });

  it('accepts exactly 50,000 characters', () => {
    const source = `(wipe red)${' '.repeat(KIDLISP_MAX_LENGTH - 10)}`;
    expect(source).toHaveLength(50_000);
    expect(previewKidlisp(source).valid).toBe(true);
  });

  it('reports every unmatched ) with its own line and column', () => {
    const preview = previewKidlisp('(wipe red))\n(ink blue)\n  )');
    expect(preview.errors).toEqual([
      "Unmatched ')' at line 1, column 11: the runtime discards the whole program",
      "Unmatched ')' at line 3, column 3: the runtime discards the whole program",
    ]);
    expect(preview.diagnostics.map(({ line, column }) => [line, column])).toEqual([
      [1, 11],
      [3, 3],
    ]);
  });

  it('accepts several unclosed ( with a warning at each, as the runtime closes them at the end', () => {
    const preview = previewKidlisp('(wipe red)\n(repeat 3 i\n  (line 0 i w i');
    expect(preview).toMatchObject({ valid: true, errors: [] });
    expect(preview.warnings).toEqual([
      "'(' at line 2, column 1 is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends",
      "'(' at line 3, column 3 is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends",
    ]);
    expect(
      preview.diagnostics.map(({ severity, line, column }) => [severity, line, column]),
    ).toEqual([
      ['warning', 2, 1],
      ['warning', 3, 3],
    ]);
  });

  it('still rejects a stray ) when ( are also left open: the runtime would discard the program', () => {
    const preview = previewKidlisp('(wipe red))\n(ink blue');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toEqual([
      "Unmatched ')' at line 1, column 11: the runtime discards the whole program",
    ]);
    expect(preview.warnings).toEqual([
      "'(' at line 2, column 1 is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends",
    ]);
  });

  it('ignores parens inside double- and single-quoted strings and comments', () => {
    const preview = previewKidlisp(
      '(wipe red) ; (((\n(write "(:" 10 10)\n(write \'))\' 20 20) ; )',
    );
    expect(preview).toMatchObject({ valid: true, errors: [] });
  });

  it('reads escaped quotes inside strings', () => {
    expect(
      previewKidlisp('(wipe red)\n(write "say \\"hi\\" (" 10 10)\n(write \'it\\\'s\' 0 0)').errors,
    ).toEqual([]);
  });

  it('ends a string at the end of its line', () => {
    const preview = previewKidlisp('(wipe red)\n(write "two\nlines" 1 1)');
    expect(preview.errors).toContain(
      'Unterminated string at line 2, column 8: a string must close on the line where it starts',
    );
    expect(preview.errors).toContain(
      'Unterminated string at line 3, column 6: a string must close on the line where it starts',
    );
  });

  it('rejects a dash in a later name and in its parameters', () => {
    const preview = previewKidlisp('(wipe red)\n(later draw-cross x-pos y (line x-pos 0 y 0))');
    expect(preview.valid).toBe(false);
    expect(preview.errors).toEqual([
      "Dash in the later name 'draw-cross' at line 2, column 8: a dash means subtraction, so the runtime ignores it; use 'draw_cross'",
      "Dash in the later parameter 'x-pos' at line 2, column 19: a dash means subtraction, so the runtime ignores it; use 'x_pos'",
    ]);
  });

  it('finds a dashed def inside other forms', () => {
    const preview = previewKidlisp('(wipe red)\n(once (def start-x 10))');
    expect(preview.errors).toEqual([
      "Dash in the def name 'start-x' at line 2, column 12: a dash means subtraction, so the runtime ignores it; use 'start_x'",
    ]);
  });

  it('does not take a dash inside a string or comment for a def name', () => {
    expect(previewKidlisp('(wipe red)\n(write "(def my-var 1)" 0 0) ; (def my-var 1)').valid).toBe(
      true,
    );
  });

  it('counts positions after Windows line endings', () => {
    const preview = previewKidlisp('(wipe red)\r\n(ink blue))');
    expect(preview.diagnostics[0]).toMatchObject({ line: 2, column: 11 });
  });
});
