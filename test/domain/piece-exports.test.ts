import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPieceExports, LIFECYCLE_EXPORTS } from '../../src/domain/piece-exports.js';

describe('checkPieceExports: accepted export forms', () => {
  it.each([
    ['export function paint() {}', ['paint']],
    ['export async function paint() {}', ['paint']],
    ['export function* sim() {}', ['sim']],
    ['export async function* act() {}', ['act']],
    ['export const boot = () => {};', ['boot']],
    ['export let sim = function () {};', ['sim']],
    ['export var act = 1;', ['act']],
    ['export class paint {}', ['paint']],
    ['function act() {}\nexport { act };', ['act']],
    ['const x = () => {};\nexport { x as sim };', ['sim']],
    ['const x = 1;\nexport { x as "paint" };', ['paint']],
    [
      'export const { paint, other: [boot] } = { paint() {}, other: [() => {}] };',
      ['boot', 'paint'],
    ],
    ['export { boot } from "./lib.mjs";', ['boot']],
    ['export * as act from "./lib.mjs";', ['act']],
    [
      'export function boot() {}\nexport function paint() {}\nexport function sim() {}\nexport function act() {}',
      ['boot', 'paint', 'sim', 'act'],
    ],
  ])('%j', (source, lifecycle) => {
    const result = checkPieceExports(source);
    expect(result).toMatchObject({ ok: true, hasDefault: false });
    if (result.ok) expect(result.lifecycle).toEqual(lifecycle);
  });

  it.each([
    'export default function () {}',
    'export default function paint() {}',
    'export default class {}',
    'export default { paint() {} };',
    'const piece = {};\nexport { piece as default };',
  ])('accepts any default export: %j', (source) => {
    expect(checkPieceExports(source)).toMatchObject({ ok: true, hasDefault: true, lifecycle: [] });
  });

  it('lists every export name, default included', () => {
    const result = checkPieceExports(
      'export const meta = {};\nexport function paint() {}\nexport default 1;',
    );
    expect(result).toEqual({
      ok: true,
      exports: ['meta', 'paint', 'default'],
      lifecycle: ['paint'],
      hasDefault: true,
    });
  });

  it('accepts real-world module syntax: imports, top-level await, hashbang, regex, templates', () => {
    const source = [
      '#!/usr/bin/env node',
      'import { helper } from "./helper.mjs";',
      'import data from "./data.json" with { type: "json" };',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal inside the piece's source text
      'const config = await Promise.resolve({ re: /export function paint/g, t: `${1}` });',
      'class Ring { #r = 1; static { this.n = 0; } get r() { return this.#r ?? 0; } }',
      'export function paint({ ink }) { ink?.(data, helper, config, new Ring().r); }',
    ].join('\n');
    expect(checkPieceExports(source)).toMatchObject({ ok: true, lifecycle: ['paint'] });
  });
});

describe('checkPieceExports: names that are not lifecycle exports', () => {
  it.each([
    ['only in a line comment', '// export function paint() {}\nexport const x = 1;', ['x']],
    ['only in a block comment', '/* export default 1 */\nexport const x = 1;', ['x']],
    ['only in a string', 'export const s = "export function boot() {}";', ['s']],
    ['only in a template', 'export const s = `export { act }`;', ['s']],
    ['declared but not exported', 'function paint() {}\nconst boot = 1;', []],
    [
      'a longer identifier',
      'export const painter = 1;\nexport function bootstrap() {}',
      ['painter', 'bootstrap'],
    ],
    ['a different case', 'export function Paint() {}', ['Paint']],
    ['exported under another name', 'function paint() {}\nexport { paint as draw };', ['draw']],
    ['only re-exports everything', 'export * from "./lib.mjs";', []],
    ['an object property', 'export const piece = { paint() {}, boot: 1 };', ['piece']],
    ['an empty module', '', []],
  ])('rejects a name %s', (_label, source, exports) => {
    expect(checkPieceExports(source)).toEqual({ ok: false, reason: 'no-lifecycle', exports });
  });
});

describe('checkPieceExports: syntax errors', () => {
  it.each([
    ['export function paint( {', 1, 25],
    ['export function paint() {\n  return 1 +;\n}', 2, 13],
    ['const a = 1;\n\n   let let = 2;', 3, 8],
    ['export function paint() {}\r\nexport function paint() {}', 2, 17],
    ['export { paint };', 1, 10],
    ['const s = "unterminated\nexport default 1;', 1, 11],
    ['export function paint() {', 1, 26],
    ['return 1;', 1, 1],
  ])('%j -> line %i, column %i', (source, line, column) => {
    const result = checkPieceExports(source);
    expect(result).toMatchObject({ ok: false, reason: 'syntax', line, column });
    if (!result.ok && result.reason === 'syntax') {
      expect(result.message).not.toMatch(/\(\d+:\d+\)$/);
      expect(result.message.length).toBeGreaterThan(0);
    }
  });

  it('counts columns from 1 and lines from 1', () => {
    expect(checkPieceExports('@')).toMatchObject({ reason: 'syntax', line: 1, column: 1 });
  });

  it('rejects script-only syntax that a module cannot have', () => {
    expect(checkPieceExports('with (Math) {}\nexport default 1;')).toMatchObject({
      reason: 'syntax',
      line: 1,
    });
    expect(checkPieceExports('export default 010;')).toMatchObject({ reason: 'syntax' });
  });

  it('reports a deeply nested module as a syntax error instead of overflowing', () => {
    const source = `export default ${'['.repeat(50_000)}${']'.repeat(50_000)};`;
    expect(checkPieceExports(source)).toMatchObject({ ok: false, reason: 'syntax' });
  });
});

describe('checkPieceExports: robustness', () => {
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        checkPieceExports(text);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on text made of module-ish tokens', () => {
    const token = fc.constantFrom(
      'export',
      'default',
      'function',
      'async',
      '*',
      'const',
      'let',
      'class',
      '{',
      '}',
      '(',
      ')',
      '[',
      ']',
      '=',
      '=>',
      ';',
      ',',
      'as',
      'from',
      '"x"',
      '`',
      '${',
      '//',
      '/*',
      '*/',
      '\n',
      ...LIFECYCLE_EXPORTS,
      'x',
      'await',
      'yield',
      'import',
      '.',
      '/re/',
      '#p',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const result = checkPieceExports(tokens.join(' '));
        if (!result.ok && result.reason === 'syntax') {
          expect(result.line).toBeGreaterThanOrEqual(1);
          expect(result.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
