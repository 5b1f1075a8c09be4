import { describe, expect, it } from 'vitest';
import { sourceHash } from '../../src/domain/hash.js';

describe('sourceHash', () => {
  it('is the SHA-256 hex of the trimmed source', () => {
    // sha256("abc")
    expect(sourceHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('ignores surrounding whitespace, so re-publishing with a trailing newline dedups', () => {
    expect(sourceHash('  (wipe blue)\n\n')).toBe(sourceHash('(wipe blue)'));
  });

  it('differs when inner content differs', () => {
    expect(sourceHash('(wipe blue)')).not.toBe(sourceHash('(wipe  blue)'));
  });

  it('hashes unicode as UTF-8', () => {
    // sha256 of the bytes C3 A9 ('é', U+00E9, in UTF-8); Latin-1 or UTF-16 would hash other bytes.
    expect(sourceHash('\u00e9')).toBe(
      '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c',
    );
    expect(sourceHash('\u00e9')).not.toBe(sourceHash('e'));
  });
});
