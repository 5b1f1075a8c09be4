import {
  type Binary,
  BSONRegExp,
  Decimal128,
  Double,
  Int32,
  Long,
  ObjectId,
  type Timestamp,
} from 'bson';
import { isPlainObject } from './values.js';

/**
 * Byte strings whose order is MongoDB's comparison order, so that LMDB's ordered tables serve
 * as indexes. Each value starts with a byte for its type bracket (MinKey < null < numbers <
 * strings < objects < arrays < binData < ObjectId < booleans < dates < timestamps < regexes <
 * MaxKey); every encoding is self-delimiting, so a tuple is the concatenation of its values and
 * a descending field is its encoding with every byte inverted.
 */
export const TYPE = {
  minKey: 0x0a,
  null: 0x14,
  number: 0x1e,
  string: 0x28,
  object: 0x32,
  array: 0x3c,
  binData: 0x46,
  objectId: 0x50,
  boolean: 0x5a,
  date: 0x64,
  timestamp: 0x6e,
  regex: 0x78,
  other: 0xe0,
  maxKey: 0xf0,
} as const;

/** LMDB refuses longer keys (the limit it is built with). */
export const MAX_KEY_BYTES = 1978;

class KeyWriter {
  #buffer = Buffer.allocUnsafe(64);
  #length = 0;

  #room(bytes: number): void {
    if (this.#length + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + bytes));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }

  byte(value: number): void {
    this.#room(1);
    this.#buffer[this.#length++] = value;
  }

  bytes(value: Uint8Array): void {
    this.#room(value.length);
    this.#buffer.set(value, this.#length);
    this.#length += value.length;
  }

  /** UTF-8 with 0x00 escaped as 0x00 0xFF, ended by 0x00 0x00: prefix-free and in byte order. */
  text(value: string): void {
    const raw = Buffer.from(value, 'utf8');
    if (raw.includes(0)) {
      for (const byte of raw) {
        this.byte(byte);
        if (byte === 0) this.byte(0xff);
      }
    } else {
      this.bytes(raw);
    }
    this.byte(0);
    this.byte(0);
  }

  result(): Buffer {
    return Buffer.from(this.#buffer.subarray(0, this.#length));
  }
}

/** The type bracket of a value, as MongoDB orders types. */
export function typeOf(value: unknown): number {
  if (value === null || value === undefined) return TYPE.null;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return TYPE.number;
    case 'string':
      return TYPE.string;
    case 'boolean':
      return TYPE.boolean;
  }
  if (value instanceof Date) return TYPE.date;
  if (value instanceof ObjectId) return TYPE.objectId;
  if (Array.isArray(value)) return TYPE.array;
  if (value instanceof RegExp || value instanceof BSONRegExp) return TYPE.regex;
  const bsonType = (value as { _bsontype?: string })._bsontype;
  switch (bsonType) {
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return TYPE.number;
    case 'Binary':
      return TYPE.binData;
    case 'Timestamp':
      return TYPE.timestamp;
    case 'MinKey':
      return TYPE.minKey;
    case 'MaxKey':
      return TYPE.maxKey;
    case 'BSONSymbol':
      return TYPE.string;
  }
  if (isPlainObject(value)) return TYPE.object;
  return TYPE.other;
}

/** Numbers of every width as one double (longs beyond 2^53 compare approximately). */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Int32 || value instanceof Double) return value.valueOf();
  if (value instanceof Decimal128) return Number(value.toString());
  return Number.NaN;
}

function writeNumber(out: KeyWriter, value: number): void {
  // NaN sorts before every other number, as in MongoDB.
  if (Number.isNaN(value)) {
    out.byte(0);
    return;
  }
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value === 0 ? 0 : value);
  if ((bytes[0] as number) & 0x80) for (let i = 0; i < 8; i++) bytes[i] = ~(bytes[i] as number);
  else bytes[0] = (bytes[0] as number) | 0x80;
  out.byte(1);
  out.bytes(bytes);
}

function writeInt64(out: KeyWriter, value: bigint): void {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  bytes[0] = (bytes[0] as number) ^ 0x80;
  out.bytes(bytes);
}

function writeValue(out: KeyWriter, value: unknown): void {
  const type = typeOf(value);
  out.byte(type);
  writeBody(out, type, value);
}

function writeBody(out: KeyWriter, type: number, value: unknown): void {
  switch (type) {
    case TYPE.null:
    case TYPE.minKey:
    case TYPE.maxKey:
      break;
    case TYPE.number:
      writeNumber(out, numberOf(value));
      break;
    case TYPE.string:
      out.text(typeof value === 'string' ? value : String((value as object).valueOf()));
      break;
    case TYPE.boolean:
      out.byte(value ? 1 : 0);
      break;
    case TYPE.date: {
      const time = (value as Date).getTime();
      writeInt64(out, BigInt(Number.isNaN(time) ? 0 : time));
      break;
    }
    case TYPE.objectId:
      out.bytes((value as ObjectId).id);
      break;
    case TYPE.binData: {
      const binary = value as Binary;
      const header = Buffer.alloc(5);
      header.writeUInt32BE(binary.position);
      header[4] = binary.sub_type;
      out.bytes(header);
      out.bytes(binary.buffer.subarray(0, binary.position));
      break;
    }
    case TYPE.timestamp: {
      const stamp = value as Timestamp;
      const bytes = Buffer.alloc(8);
      bytes.writeUInt32BE(stamp.high >>> 0, 0);
      bytes.writeUInt32BE(stamp.low >>> 0, 4);
      out.bytes(bytes);
      break;
    }
    case TYPE.regex: {
      const regex = value as RegExp | BSONRegExp;
      out.text(regex instanceof RegExp ? regex.source : regex.pattern);
      out.text(regex instanceof RegExp ? regex.flags : regex.options);
      break;
    }
    case TYPE.array:
      for (const element of value as unknown[]) writeValue(out, element);
      out.byte(0);
      break;
    case TYPE.object:
      // Field by field: the value's type, then the name, then the value (MongoDB's order).
      for (const [name, inner] of Object.entries(value as object)) {
        const innerType = typeOf(inner);
        out.byte(innerType);
        out.text(name);
        writeBody(out, innerType, inner);
      }
      out.byte(0);
      break;
    default:
      out.text(String(value));
  }
}

/** The ascending key of one value. */
export function encodeValue(value: unknown): Buffer {
  const out = new KeyWriter();
  writeValue(out, value);
  return out.result();
}

/** Every byte inverted: the key of a descending field. */
export function invert(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = ~(bytes[i] as number) & 0xff;
  return out;
}

/** The smallest byte string above every string that starts with `bytes`; undefined if none. */
export function successor(bytes: Buffer): Buffer | undefined {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if ((bytes[i] as number) < 0xff) {
      const out = Buffer.from(bytes.subarray(0, i + 1));
      out[i] = (out[i] as number) + 1;
      return out;
    }
  }
  return undefined;
}

/** The key prefix shared by every string starting with `prefix` (no terminator). */
export function stringPrefix(prefix: string): Buffer {
  const out = new KeyWriter();
  out.byte(TYPE.string);
  out.text(prefix);
  const bytes = out.result();
  return bytes.subarray(0, bytes.length - 2);
}

/** Where the text starting at `at` ends (after its 0x00 0x00 terminator; inverted: 0xFF 0xFF). */
function textEnd(key: Buffer, at: number, mask: number): number {
  for (let i = at; i < key.length; i++) {
    if (((key[i] as number) ^ mask) !== 0) continue;
    if ((((key[i + 1] as number) ^ mask) & 0xff) === 0) return i + 2;
    i++; // an escaped 0x00
  }
  return key.length;
}

function bodyEnd(key: Buffer, type: number, at: number, mask: number): number {
  switch (type) {
    case TYPE.null:
    case TYPE.minKey:
    case TYPE.maxKey:
      return at;
    case TYPE.number:
      return ((key[at] as number) ^ mask) === 0 ? at + 1 : at + 9;
    case TYPE.string:
    case TYPE.other:
      return textEnd(key, at, mask);
    case TYPE.boolean:
      return at + 1;
    case TYPE.date:
    case TYPE.timestamp:
      return at + 8;
    case TYPE.objectId:
      return at + 12;
    case TYPE.binData: {
      const header = Buffer.from(key.subarray(at, at + 4).map((b) => b ^ mask));
      return at + 5 + header.readUInt32BE(0);
    }
    case TYPE.regex:
      return textEnd(key, textEnd(key, at, mask), mask);
    case TYPE.array:
      for (let i = at; ; ) {
        if (((key[i] as number) ^ mask) === 0) return i + 1;
        i = bodyEnd(key, ((key[i] as number) ^ mask) & 0xff, i + 1, mask);
      }
    case TYPE.object:
      for (let i = at; ; ) {
        const inner = (key[i] as number) ^ mask;
        if (inner === 0) return i + 1;
        i = bodyEnd(key, inner, textEnd(key, i + 1, mask), mask);
      }
    default:
      return key.length;
  }
}

/** Where the encoded value starting at `at` ends; `descending` when its bytes are inverted. */
export function valueEnd(key: Buffer, at: number, descending = false): number {
  const mask = descending ? 0xff : 0;
  return bodyEnd(key, ((key[at] as number) ^ mask) & 0xff, at + 1, mask);
}
