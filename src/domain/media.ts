import { createHash } from 'node:crypto';

export const MEDIA_EXTS = ['png', 'mjs', 'zip', 'lisp', 'lua', 'mp4'] as const;
export type MediaExt = (typeof MEDIA_EXTS)[number];
export const MAX_TAPE_SECONDS = 30;

const COLLECTIONS = {
  png: 'paintings',
  mjs: 'pieces',
  lisp: 'pieces',
  lua: 'pieces',
  zip: 'tapes',
  mp4: 'tapes',
} as const satisfies Record<MediaExt, 'paintings' | 'pieces' | 'tapes'>;

export function mediaCollection(ext: MediaExt): 'paintings' | 'pieces' | 'tapes' {
  return COLLECTIONS[ext];
}

export function isTape(ext: MediaExt): boolean {
  return COLLECTIONS[ext] === 'tapes';
}

export type SlugCheck = { ok: true } | { ok: false; message: string };

/** The longest media slug (a storage key, account segment and extension included). */
const MAX_MEDIA_SLUG_LENGTH = 300;
const MAX_ACCOUNT_SEGMENT = 128;
/** [<account>/]<yyyy>/<mm>/<dd>/<name> */
const SLUG_SHAPE =
  /^(?:[A-Za-z0-9|_-]+\/)?\d{4}\/(?:0[1-9]|1[0-2])\/(?:0[1-9]|[12]\d|3[01])\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const SHAPE_HELP =
  'slug must look like <yyyy>/<mm>/<dd>/<name>.<ext>, optionally after one account segment';

/** Accepts a storage key for uploaded media; `ext` must be the key's own extension. */
export function checkMediaSlug(slug: string, ext: MediaExt): SlugCheck {
  const fail = (message: string): SlugCheck => ({ ok: false, message });
  if (slug.length === 0) return fail('slug is empty');
  if (slug.length > MAX_MEDIA_SLUG_LENGTH)
    return fail(`slug is longer than ${MAX_MEDIA_SLUG_LENGTH} characters`);
  // C0, DEL and C1 control characters.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this line's purpose
  if (/[\u0000-\u001f\u007f-\u009f]/.test(slug)) return fail('slug contains control characters');
  if (slug.includes('\\')) return fail('slug contains a backslash');
  if (slug.startsWith('/')) return fail('slug must not start with /');
  if (slug.split('/').some((segment) => segment === '..' || segment === '.')) {
    return fail('slug must not contain . or .. segments');
  }
  if (!slug.endsWith(`.${ext}`)) return fail(`slug must end with .${ext} to match ext`);
  return SLUG_SHAPE.test(slug) ? { ok: true } : fail(SHAPE_HELP);
}

/**
 * The storage key a media or piece record names. Records store `slug` as the whole key, extension
 * included; store-piece records written before that (and the reference deployment's records)
 * stored it without, so a slug without its extension gets it back here.
 */
export function storageKeyOf(slug: string, ext: MediaExt): string {
  return slug.endsWith(`.${ext}`) ? slug : `${slug}.${ext}`;
}

/** '<account>/<yyyy>/<mm>/<dd>/<code>.mjs' (UTC date); without an account, no first segment. */
export function pieceStorageKey(code: string, when: Date, accountId?: string): string {
  const date = [
    String(when.getUTCFullYear()).padStart(4, '0'),
    String(when.getUTCMonth() + 1).padStart(2, '0'),
    String(when.getUTCDate()).padStart(2, '0'),
  ].join('/');
  const key = accountId
    ? `${accountSegment(accountId)}/${date}/${code}.mjs`
    : `${date}/${code}.mjs`;
  const check = checkMediaSlug(key, 'mjs');
  if (!check.ok)
    throw new RangeError(`cannot build a storage key for code '${code}': ${check.message}`);
  return key;
}

/**
 * Who may register a slug: a guest-space slug (`<yyyy>/<mm>/<dd>/<file>`) anyone; a slug under an
 * account's segment (`<account>/<yyyy>/...`) only that account. `slug` must have passed checkMediaSlug.
 */
export function mayRegisterSlug(slug: string, accountId: string | undefined): boolean {
  const segments = slug.split('/');
  if (segments.length === 4) return true;
  return accountId !== undefined && segments[0] === accountSegment(accountId);
}

/**
 * Keeps [A-Za-z0-9|-] and writes every other UTF-8 byte as _xx, '_' included, so two
 * accounts never share a segment. Overlong results keep a readable prefix plus a hash.
 */
function accountSegment(accountId: string): string {
  const utf8 = new TextEncoder();
  let segment = '';
  for (const char of accountId) {
    if (/^[A-Za-z0-9|-]$/.test(char)) segment += char;
    else for (const byte of utf8.encode(char)) segment += `_${byte.toString(16).padStart(2, '0')}`;
  }
  if (segment.length <= MAX_ACCOUNT_SEGMENT) return segment;
  const digest = createHash('sha256').update(accountId, 'utf8').digest('hex').slice(0, 32);
  return `${segment.slice(0, MAX_ACCOUNT_SEGMENT - 34)}--${digest}`;
}
