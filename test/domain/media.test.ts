import { describe, expect, it } from 'vitest';
import {
  checkMediaSlug,
  isTape,
  MAX_TAPE_SECONDS,
  MEDIA_EXTS,
  type MediaExt,
  mediaCollection,
  pieceStorageKey,
} from '../../src/domain/media.js';

describe('mediaCollection and isTape', () => {
  it.each([
    ['png', 'paintings', false],
    ['mjs', 'pieces', false],
    ['lisp', 'pieces', false],
    ['lua', 'pieces', false],
    ['zip', 'tapes', true],
    ['mp4', 'tapes', true],
  ] as const)('%s -> %s (tape: %s)', (ext, collection, tape) => {
    expect(mediaCollection(ext)).toBe(collection);
    expect(isTape(ext)).toBe(tape);
  });

  it('covers every extension and caps tapes at 30 seconds', () => {
    expect([...MEDIA_EXTS].sort()).toEqual(['lisp', 'lua', 'mjs', 'mp4', 'png', 'zip']);
    expect(MAX_TAPE_SECONDS).toBe(30);
  });
});

describe('checkMediaSlug', () => {
  it.each([
    ['2026/01/02/sunset.png', 'png'],
    ['2026/12/31/my-tape_v2.final.zip', 'zip'],
    ['1999/09/09/A.mp4', 'mp4'],
    ['2026/02/29/piece.lisp', 'lisp'],
    ['2026/10/10/x.lua', 'lua'],
    ['2026/10/10/bako.mjs', 'mjs'],
    ['auth0|abc123/2026/01/02/x.png', 'png'],
    ['google-oauth2|10923/2026/01/02/x.mp4', 'mp4'],
    ['guest_1/2026/01/02/x.zip', 'zip'],
    [`2026/01/02/${'n'.repeat(285)}.png`, 'png'],
  ] as [string, MediaExt][])('accepts %s as %s', (slug, ext) => {
    expect(checkMediaSlug(slug, ext)).toEqual({ ok: true });
  });

  it.each([
    ['empty', '', 'png', /empty/],
    ['parent segment', '../2026/01/02/x.png', 'png', /\.\./],
    ['parent segment inside', 'acct/../2026/01/02/x.png', 'png', /\.\./],
    ['dot segment', './2026/01/02/x.png', 'png', /\./],
    ['absolute path', '/2026/01/02/x.png', 'png', /start with \//],
    ['backslash', '2026\\01\\02\\x.png', 'png', /backslash/],
    ['newline', '2026/01/02/x\n.png', 'png', /control/],
    ['NUL byte', '2026/01/02/x\u0000.png', 'png', /control/],
    ['DEL', '2026/01/02/x\u007f.png', 'png', /control/],
    ['C1 control', '2026/01/02/x\u0085.png', 'png', /control/],
    ['mismatched ext', '2026/01/02/x.png', 'zip', /\.zip/],
    ['ext only by prefix', '2026/01/02/x.mp4x', 'mp4', /\.mp4/],
    ['upper-case ext', '2026/01/02/x.PNG', 'png', /\.png/],
    ['no ext at all', '2026/01/02/x', 'png', /\.png/],
    ['month 00', '2026/00/02/x.png', 'png', /yyyy/],
    ['month 13', '2026/13/02/x.png', 'png', /yyyy/],
    ['day 00', '2026/01/00/x.png', 'png', /yyyy/],
    ['day 32', '2026/01/32/x.png', 'png', /yyyy/],
    ['one-digit month', '2026/1/02/x.png', 'png', /yyyy/],
    ['two-digit year', '26/01/02/x.png', 'png', /yyyy/],
    ['five-digit year', '20260/01/02/x.png', 'png', /yyyy/],
    ['missing date', 'x.png', 'png', /yyyy/],
    ['two account segments', 'a/b/2026/01/02/x.png', 'png', /yyyy/],
    ['account with a dot', 'a.b/2026/01/02/x.png', 'png', /yyyy/],
    ['name only the extension', '2026/01/02/.png', 'png', /yyyy/],
    ['hidden name', '2026/01/02/.x.png', 'png', /yyyy/],
    ['space in name', '2026/01/02/my x.png', 'png', /yyyy/],
    ['unicode in name', '2026/01/02/café.png', 'png', /yyyy/],
    ['trailing slash', '2026/01/02/x.png/', 'png', /\.png/],
    ['query string', '2026/01/02/x.png?a=1', 'png', /\.png/],
    ['too long', `2026/01/02/${'n'.repeat(286)}.png`, 'png', /300/],
  ] as [string, string, MediaExt, RegExp][])('rejects %s', (_label, slug, ext, message) => {
    const result = checkMediaSlug(slug, ext);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('pieceStorageKey', () => {
  const when = new Date('2026-03-04T23:30:00Z');

  it('stores guest pieces under the UTC date', () => {
    expect(pieceStorageKey('bako', when)).toBe('2026/03/04/bako.mjs');
  });

  it('uses the UTC day even when it is already tomorrow elsewhere', () => {
    expect(pieceStorageKey('bako', new Date('2026-12-31T23:59:59-05:00'))).toBe(
      '2027/01/01/bako.mjs',
    );
  });

  it('prefixes the account id when authenticated', () => {
    expect(pieceStorageKey('red-box', when, 'auth0|abc123')).toBe(
      'auth0|abc123/2026/03/04/red-box.mjs',
    );
    expect(pieceStorageKey('red-box', when, '')).toBe('2026/03/04/red-box.mjs');
  });

  it('encodes unsafe account characters, keeping distinct accounts apart', () => {
    const dotted = pieceStorageKey('x', when, 'email|a.b@c.com');
    expect(dotted).toBe('email|a_2eb_40c_2ecom/2026/03/04/x.mjs');
    expect(pieceStorageKey('x', when, 'email|a_2eb_40c_2ecom')).not.toBe(dotted);
    expect(pieceStorageKey('x', when, '../../etc')).toBe('_2e_2e_2f_2e_2e_2fetc/2026/03/04/x.mjs');
    expect(pieceStorageKey('x', when, 'zoë')).toBe('zo_c3_ab/2026/03/04/x.mjs');
  });

  it('always produces a key that passes checkMediaSlug', () => {
    const accounts = [
      undefined,
      'auth0|abc',
      'a/b',
      'a b',
      '\u0000\n',
      '日本',
      '.',
      '..',
      'x'.repeat(255),
      '🌊'.repeat(200),
    ];
    for (const account of accounts) {
      const key = pieceStorageKey('a-very-long-piece-name-that-goes', when, account);
      expect(checkMediaSlug(key, 'mjs')).toEqual({ ok: true });
    }
  });

  it('keeps overlong account ids distinct', () => {
    const a = pieceStorageKey('x', when, `${'y'.repeat(300)}a`);
    const b = pieceStorageKey('x', when, `${'y'.repeat(300)}b`);
    expect(a).not.toBe(b);
  });

  it('refuses a code that cannot be a file name', () => {
    expect(() => pieceStorageKey('../x', when)).toThrow(RangeError);
    expect(() => pieceStorageKey('x', new Date(Number.NaN))).toThrow(RangeError);
  });
});
