import { BSONRegExp, type Document } from 'bson';
import { Query } from 'mingo';
import { MingoError } from 'mingo/util';
import { defineField } from './documents.js';
import { badValue, notSupported } from './errors.js';
import { compileNative } from './matcher.js';
import { toRegExp } from './regex.js';
import { isPlainObject } from './values.js';

/** Options for every mingo call: no server-side JavaScript, ever. */
export const mingoOptions = { scriptEnabled: false } as const;

const scriptOperators = new Set(['$where', '$function', '$accumulator']);
/** The `$type` names and numbers mingo tells apart on decoded documents. */
const knownTypes = new Set<unknown>([
  'double',
  'string',
  'object',
  'array',
  'bool',
  'date',
  'null',
  'int',
  'long',
  'decimal',
  'number',
  1,
  2,
  3,
  4,
  8,
  9,
  10,
  16,
  18,
  19,
]);
const unknownType = (type: unknown) =>
  (typeof type === 'number' || (typeof type === 'string' && !type.startsWith('$'))) &&
  !knownTypes.has(type);

/**
 * Readies a filter or pipeline for mingo: BSON regexes (and `$regex` with `$options`) become
 * JS RegExps, `$comment` goes; server-side JavaScript and `$type`s mingo cannot tell are refused.
 */
export function prepare(value: unknown): unknown {
  if (value instanceof BSONRegExp) return toRegExp(value.pattern, value.options);
  if (Array.isArray(value)) return value.map(prepare);
  if (!isPlainObject(value)) return value;
  const out: Document = {};
  for (const [key, inner] of Object.entries(value)) {
    if (scriptOperators.has(key)) throw notSupported(`${key} (server-side JavaScript)`);
    if (key === '$comment' || key === '$options') continue;
    const type = key === '$type' ? [inner].flat().find(unknownType) : undefined;
    if (type !== undefined) throw notSupported(`$type ${JSON.stringify(type)}`);
    if (key === '$regex' && !(inner instanceof RegExp)) {
      const source = inner instanceof BSONRegExp ? inner.pattern : inner;
      const options = `${inner instanceof BSONRegExp ? inner.options : ''}${value.$options ?? ''}`;
      if (typeof source !== 'string') throw badValue('$regex has to be a string');
      out.$regex = toRegExp(source, options);
      continue;
    }
    defineField(out, key, prepare(inner));
  }
  return out;
}

/** Runs a mingo call, turning mingo's errors into command errors. */
export function viaMingo<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof MingoError) throw badValue(error.message);
    throw error;
  }
}

export interface Filter {
  /** The prepared filter document. */
  readonly spec: Document;
  test(doc: Document): boolean;
}

export function compileFilter(filter: unknown): Filter {
  if (filter !== undefined && filter !== null && !isPlainObject(filter))
    throw badValue('filter must be an object');
  const spec = prepare(filter ?? {}) as Document;
  const native = compileNative(spec);
  if (native) return { spec, test: native };
  const query = viaMingo(() => new Query(spec, mingoOptions));
  return { spec, test: (doc) => viaMingo(() => query.test(doc)) };
}
