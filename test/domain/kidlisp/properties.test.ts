import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type KidlispPreview, previewKidlisp } from '../../../src/domain/kidlisp/index.js';

function expectWellFormed(preview: KidlispPreview): void {
  expect(preview.valid).toBe(preview.errors.length === 0);
  expect(preview.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual(
    preview.errors,
  );
  expect(preview.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message)).toEqual(
    preview.warnings,
  );
  for (const diagnostic of preview.diagnostics) {
    expect(diagnostic.line).toBeGreaterThanOrEqual(1);
    expect(diagnostic.column).toBeGreaterThanOrEqual(1);
    expect(diagnostic.message).toContain(`line ${diagnostic.line}, column ${diagnostic.column}`);
  }
}

const kidlispCharacters = fc.constantFrom(
  '(',
  ')',
  '"',
  "'",
  ';',
  ',',
  '\\',
  ' ',
  '\n',
  '\r',
  '\t',
  'a',
  'z',
  '0',
  '9',
  '.',
  '-',
  ':',
  '$',
  '#',
  's',
  'f',
  '…',
  '😀',
  '\u2028',
  '\u00a0',
);
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: kidlispCharacters, maxLength: 300 }),
);

describe('previewKidlisp on arbitrary text', () => {
  it('never throws and always answers consistently', () => {
    fc.assert(
      fc.property(anyText, (source) => {
        expectWellFormed(previewKidlisp(source));
      }),
      { numRuns: 1_500 },
    );
  });

  it('never throws on long text, including text over the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: kidlispCharacters, minLength: 20_000, maxLength: 60_000 }),
        (source) => {
          expectWellFormed(previewKidlisp(source));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('never throws on deep nesting', () => {
    for (const source of [
      '('.repeat(50_000),
      ')'.repeat(50_000),
      `${'(a '.repeat(25_000)}`,
      '"'.repeat(50_000),
    ]) {
      expectWellFormed(previewKidlisp(source));
    }
  });
});

// Random programs whose parens balance, with parens also inside strings and comments.
const word = fc.stringMatching(
  /^[a-z][a-z0-9_:./*+]{0,7}$|^-?\d{1,3}(\.\d)?$|^\d?\.?\d+s(\.\.\.?|!)?$/,
);
const doubleQuoted = fc
  .string({
    unit: fc.constantFrom('(', ')', ';', ',', ' ', 'a', "'", '\\"', '\\\\', '😀'),
    maxLength: 12,
  })
  .map((text) => `"${text}"`);
const singleQuoted = fc
  .string({
    unit: fc.constantFrom('(', ')', ';', ',', ' ', 'b', '"', "\\'", '\\\\'),
    maxLength: 12,
  })
  .map((text) => `'${text}'`);
const comment = fc
  .string({ unit: fc.constantFrom('(', ')', '"', "'", ';', ',', ' ', 'c'), maxLength: 12 })
  .map((text) => `;${text}\n`);
const separator = fc.constantFrom(' ', '  ', '\n', '\t', ' , ', '\r\n');

interface ProgramArbitraries {
  form: string;
  list: string;
}

const { form } = fc.letrec<ProgramArbitraries>((tie) => ({
  form: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: word, weight: 2 },
    { arbitrary: doubleQuoted, weight: 1 },
    { arbitrary: singleQuoted, weight: 1 },
    { arbitrary: tie('list') as fc.Arbitrary<string>, weight: 3 },
  ),
  list: fc
    .array(fc.tuple(tie('form'), separator, fc.option(comment, { freq: 4 })), { maxLength: 5 })
    .map((items) => `(${items.map(([item, gap, note]) => `${item}${note ?? gap}`).join('')})`),
}));

const program = fc
  .array(fc.tuple(form, separator, fc.option(comment, { freq: 3 })), { minLength: 1, maxLength: 8 })
  .map((items) => items.map(([item, gap, note]) => `${item}${note ?? gap}`).join(''));

describe('previewKidlisp on balanced programs', () => {
  it('never reports a paren or string error', () => {
    fc.assert(
      fc.property(program, (source) => {
        const preview = previewKidlisp(source);
        expectWellFormed(preview);
        const structural = preview.errors.filter((error) =>
          /unclosed|unmatched|unterminated/i.test(error),
        );
        expect(structural).toEqual([]);
      }),
      { numRuns: 1_500 },
    );
  });
});

describe('previewKidlisp on programs that leave ( open', () => {
  it('accepts what it accepted before, with one warning at each ( left open', () => {
    fc.assert(
      fc.property(program, fc.integer({ min: 1, max: 3 }), (source, open) => {
        const balanced = previewKidlisp(source);
        const unclosed = previewKidlisp('('.repeat(open) + source);
        expectWellFormed(unclosed);
        expect(unclosed.valid).toBe(balanced.valid);
        const neverClosed = unclosed.diagnostics.filter((item) =>
          item.message.includes('is never closed'),
        );
        expect(neverClosed.map(({ severity, line, column }) => [severity, line, column])).toEqual(
          Array.from({ length: open }, (_, index) => ['warning', 1, index + 1]),
        );
      }),
      { numRuns: 1_000 },
    );
  });
});
