import fc from 'fast-check';
import { errorStatus } from '../../src/app-error.js';
import type { RawResponse } from '../support/http-client.js';

/** Inputs for the property-based tests: wrong types, huge and odd strings, operator keys, nesting. */

/** Keys that mean something to MongoDB or to JavaScript objects. */
export const operatorKey = fc.constantFrom(
  '$gt',
  '$ne',
  '$regex',
  '$where',
  '$expr',
  '$in',
  '$or',
  '$options',
  '$function',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);

/** Strings people and programs actually send, at the edges. */
export const specialString = fc.constantFrom(
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  '\u0000\u0000(wipe)',
  '\\',
  '\\u0000',
  '"',
  "'; DROP TABLE kidlisp; --",
  '{"$gt": ""}',
  '$where',
  '../../etc/passwd',
  '/etc/passwd',
  '2026/01/02/x.png',
  '2026/13/40/x.png',
  'C:\\Windows\\x.png',
  '%00',
  '%zz',
  '\u202e\u202d',
  '\ufeff',
  '\ud800',
  '\udfff\ud800',
  '🏳️‍🌈'.repeat(3),
  'é'.normalize('NFD'),
  'ﷺ',
  '𝕏',
  '<script>alert(1)</script>',
  'null',
  'undefined',
  'true',
  'NaN',
  '-0',
  '1e309',
  'export default 1',
  'export function paint() {}',
  '(wipe blue)',
  'c d e f g',
);

/** Long strings around each limit (10,000 / 50,000 / 100,000 characters, and beyond). */
export const hugeString = fc
  .tuple(
    fc.constantFrom(9_999, 10_001, 49_999, 50_001, 99_999, 100_001, 250_000),
    fc.constantFrom('x', 'é', '😀', '(', '\\', '\u0000', ' ', 'export default 1;'),
  )
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

export const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: specialString },
  { weight: 1, arbitrary: hugeString },
);

/** Any JSON value, with operator-looking keys in its objects. */
export const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e-308, 0.5, 30, 30.000001, 101),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(operatorKey, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Sources near the valid shape of each publishing operation. */
export const kidlispSource = fc.oneof(
  text,
  fc.string({ maxLength: 30 }).map((s) => `(wipe ${s})`),
);
export const melodySource = fc.oneof(
  text,
  fc
    .array(fc.constantFrom('c', 'd', 'e', 'f#', 'g4', '-', 'rest', 'x'), { maxLength: 12 })
    .map((notes) => notes.join(' ')),
);
export const pieceSource = fc.oneof(
  text,
  fc
    .string({ maxLength: 30 })
    .map((s) => `export function paint({ wipe }) { wipe(${JSON.stringify(s)}); }`),
  fc.string({ maxLength: 30 }).map((s) => `export default ${JSON.stringify(s)};`),
  fc.string({ maxLength: 30 }).map((s) => `export function paint( { ${s}`),
  fc
    .string({ maxLength: 30 })
    .map((s) => `// export function paint() {}\nconst s = ${JSON.stringify(s)};`),
);
export const pieceName = fc.oneof(
  text,
  fc.constantFrom('My Piece', 'api', 'graphql', '$code', '---', '🎨', 'a'.repeat(201)),
);

/** `[[[[...]]]]` or `{"a":{"a":...}}`, nested deeper than any sane client would. */
export const deeplyNested = fc
  .tuple(fc.integer({ min: 50, max: 3_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"source":'.repeat(depth)}"x"${'}'.repeat(depth)}`,
  );

/** Text that is not JSON (sent verbatim). */
export const notJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"source": ',
    '{"source": "x",}',
    "{'source': 'x'}",
    '[1,2',
    'nul',
    'NaN',
    '"\\u12"',
    '{"a":1}{"b":2}',
    '\u0000',
    '',
  ),
  fc.string({ maxLength: 30 }).map((s) => `{${s}`),
);

export interface BodyCase {
  /** A JSON value to serialise, or text to send as is. */
  body: { json: unknown } | { raw: string };
  contentType: string | null;
  authorization: string | null;
}

/** A request body for a route whose fields are `fields` (each with its own near-valid values). */
export function bodyCase(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<BodyCase> {
  const field = (near: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 3, arbitrary: near }, { weight: 2, arbitrary: jsonish });
  const shaped = fc
    .tuple(
      fc.record(
        Object.fromEntries(Object.entries(fields).map(([name, near]) => [name, field(near)])),
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.oneof(operatorKey, fc.string({ maxLength: 8 })), jsonish, { maxKeys: 3 }),
      fc.boolean(),
    )
    .map(([known, extra, extraFirst]) =>
      extraFirst ? { ...extra, ...known } : { ...known, ...extra },
    );
  return fc.record({
    body: fc.oneof(
      { weight: 12, arbitrary: shaped.map((json) => ({ json })) },
      { weight: 3, arbitrary: jsonish.map((json) => ({ json })) },
      { weight: 1, arbitrary: deeplyNested.map((raw) => ({ raw })) },
      { weight: 2, arbitrary: notJson.map((raw) => ({ raw })) },
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          null,
          'application/json; charset=utf-8',
          'application/vnd.api+json',
          'APPLICATION/JSON',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          '',
          '*/*',
        ),
      },
    ),
    authorization: fc.oneof(
      { weight: 15, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          'Basic YTpi',
          'Bearer pgw_not-a-token',
          'Bearer a.b.c',
          'bearer x y',
        ),
      },
    ),
  });
}

export const serialise = (body: BodyCase['body']) =>
  'raw' in body ? body.raw : JSON.stringify(body.json);

/** Well-formed, so it can be percent-encoded (lone surrogates cannot). */
export const encode = (value: string) =>
  encodeURIComponent(
    value.replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    ),
  );

/** What to show of a failing case: long strings cut. */
export function preview(value: unknown): string {
  const json = JSON.stringify(value, (_key, item) =>
    typeof item === 'string' && item.length > 80
      ? `${item.slice(0, 40)}…(${item.length} chars)`
      : item,
  );
  return json === undefined ? String(value) : json.length > 600 ? `${json.slice(0, 600)}…` : json;
}

const STACK = /\bat [^\s]+ \(?[^\s)]*\.(?:ts|js|mjs):\d+/;

/** A REST answer a client can act on: a 2xx, or a 4xx with the contract's error shape and matching status. */
export function restProblem(
  response: RawResponse,
  success: (json: any) => boolean,
): string | undefined {
  if (response.status >= 200 && response.status < 300)
    return success(response.json)
      ? undefined
      : `unexpected ${response.status} body ${response.text.slice(0, 200)}`;
  if (response.status < 400 || response.status >= 500)
    return `status ${response.status}: ${response.text.slice(0, 300)}`;
  const body = response.json;
  if (!/^application\/json/.test(String(response.headers['content-type'])))
    return `${response.status} is not JSON: ${response.headers['content-type']}`;
  if (typeof body !== 'object' || body === null)
    return `${response.status} body is not an object: ${response.text.slice(0, 200)}`;
  if (typeof body.error !== 'string' || body.error.length === 0 || body.message !== body.error)
    return `${response.status} body lacks error/message: ${response.text.slice(0, 200)}`;
  if (!(body.code in errorStatus)) return `${response.status} with unknown code ${body.code}`;
  if (errorStatus[body.code as keyof typeof errorStatus] !== response.status)
    return `code ${body.code} with status ${response.status}`;
  if (STACK.test(response.text)) return `stack trace in body: ${response.text.slice(0, 300)}`;
  if (
    body.code === 'UNAUTHENTICATED' &&
    response.headers['www-authenticate'] !== 'Bearer error="invalid_token"'
  )
    return '401 without WWW-Authenticate';
  return undefined;
}

/** Yoga's own codes for requests it cannot run at all (before any resolver). */
const REQUEST_CODES = new Set([
  'BAD_REQUEST',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
]);

/**
 * A GraphQL answer a client can act on: no 5xx; every error has a message and no stack; an
 * error raised while executing a field (it has a `path`) carries a contract code that is not a 5xx.
 */
export function graphqlProblem(
  response: RawResponse,
  field: string,
  success: (value: any) => boolean,
): string | undefined {
  if (response.status >= 500 || response.status < 200)
    return `status ${response.status}: ${response.text.slice(0, 300)}`;
  const body = response.json;
  if (typeof body !== 'object' || body === null)
    return `body is not JSON: ${response.text.slice(0, 200)}`;
  if (STACK.test(response.text)) return `stack trace in body: ${response.text.slice(0, 300)}`;
  const errors = (body.errors ?? []) as {
    message?: unknown;
    path?: unknown;
    extensions?: { code?: string };
  }[];
  for (const error of errors) {
    if (typeof error.message !== 'string' || error.message.length === 0)
      return `error without a message: ${preview(error)}`;
    const code = error.extensions?.code;
    if (code !== undefined && !REQUEST_CODES.has(code)) {
      if (!(code in errorStatus)) return `unknown error code ${code}`;
      if (errorStatus[code as keyof typeof errorStatus] >= 500)
        return `server error ${code}: ${error.message}`;
    }
    if (error.path !== undefined && (code === undefined || REQUEST_CODES.has(code)))
      return `field error without a contract code: ${preview(error)}`;
  }
  if (response.status !== 200 && errors.length === 0)
    return `status ${response.status} without errors`;
  const value = body.data?.[field];
  if (errors.length === 0 && !success(value)) return `unexpected data ${preview(body.data)}`;
  return undefined;
}
