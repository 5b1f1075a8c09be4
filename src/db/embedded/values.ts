import { Binary, BSONRegExp, type Document, Long, ObjectId } from 'bson';

export function isPlainObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `{ $gt: 1 }`-style: a document whose first key names an operator. */
export function isOperatorObject(value: unknown): value is Document {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first?.startsWith('$') === true;
}

/**
 * A string equal for two values exactly when MongoDB compares them equal (numbers of any
 * width alike, objects field by field in order); missing and null share one key, as in an index.
 */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
      return `n${Object.is(value, -0) ? 0 : value}`;
    case 'string':
      return `s${value}`;
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value instanceof ObjectId) return `o${value.toHexString()}`;
  if (value instanceof Long) return `n${value.toString()}`;
  if (Array.isArray(value)) return `a${JSON.stringify(value.map(valueKey))}`;
  if (isPlainObject(value))
    return `{${JSON.stringify(Object.entries(value).map(([k, v]) => [k, valueKey(v)]))}`;
  if (value instanceof Binary) return `b${value.sub_type}:${value.toString('base64')}`;
  if (value instanceof RegExp) return `r${value.source}/${value.flags}`;
  if (value instanceof BSONRegExp) return `r${value.pattern}/${value.options}`;
  const typed = value as { _bsontype?: string; toString(): string };
  return `${typed._bsontype ?? 'x'}:${typed.toString()}`;
}

/** The key of a tuple of values, as stored in an index. */
export const tupleKey = (values: readonly unknown[]): string =>
  values.length === 1 ? valueKey(values[0]) : JSON.stringify(values.map(valueKey));

/**
 * The values a dotted path reaches in a document, descending into arrays the way MongoDB
 * does (a path through an array of documents reaches a value in each; an array at the end
 * contributes its elements). A missing field gives `undefined`.
 */
export function pathValues(value: unknown, parts: readonly string[], depth = 0): unknown[] {
  if (depth === parts.length) return Array.isArray(value) ? value : [value];
  const part = parts[depth] as string;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) return pathValues(value[Number(part)], parts, depth + 1);
    return value.flatMap((element) =>
      isPlainObject(element) ? pathValues(element, parts, depth) : [],
    );
  }
  if (isPlainObject(value))
    return pathValues(Object.hasOwn(value, part) ? value[part] : undefined, parts, depth + 1);
  return [undefined];
}
