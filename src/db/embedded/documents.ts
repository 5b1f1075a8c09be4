import { BSON, type Document } from 'bson';

/** How every BSON document is decoded here: regexes stay BSON regexes until a query needs them. */
export const decodeOptions = { bsonRegExp: true } as const;

export const decodeDocument = (bytes: Uint8Array): Document =>
  BSON.deserialize(bytes, decodeOptions);

/**
 * A deep copy of plain objects and arrays (BSON values are shared, being immutable here).
 * Fields are defined, never assigned, so `__proto__` stays an ordinary field.
 */
export function cloneDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDeep) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Document = {};
  for (const [key, inner] of Object.entries(value)) defineField(out, key, cloneDeep(inner));
  return out as T;
}

/** Sets a field as an own data property, whatever its name. */
export function defineField(target: Document, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}
