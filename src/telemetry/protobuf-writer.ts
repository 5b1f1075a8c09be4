import { varintAt } from '../varint.js';

/** Protobuf's wire types (protobuf.dev/programming-guides/encoding). */
export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

export const TWO_TO_32 = 0x1_0000_0000;

/** The value of each hexadecimal digit by its character code; 0 for any other character. */
const HEX_DIGITS = new Uint8Array(128);
for (let digit = 0; digit < 16; digit++) {
  HEX_DIGITS['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_DIGITS['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/** Bytes a varint of `value` (0 up to 2^32) takes. */
function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x20_0000) return 3;
  if (value < 0x1000_0000) return 4;
  return 5;
}

/**
 * The protobuf wire format, appended to one buffer that grows as it fills. A length-delimited
 * field's length is not known before its contents are written: `openLength` holds room for it,
 * `closeLength` writes it there, moving the contents when it took more or fewer bytes.
 */
export class ProtobufWriter {
  bytes: Buffer;
  at = 0;

  constructor(size = 16_384) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  /** What has been written: a view of the writer's buffer, valid until its next write. */
  written(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  private room(size: number): void {
    if (this.at + size <= this.bytes.length) return;
    let length = this.bytes.length * 2;
    while (length < this.at + size) length *= 2;
    const grown = Buffer.allocUnsafe(length);
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  /** A non-negative integer below 2^64 (exact below 2^53, as every JavaScript integer is). */
  varint(value: number): void {
    this.room(10);
    const { bytes } = this;
    while (value >= TWO_TO_32) {
      bytes[this.at++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.at = varintAt(bytes, this.at, value);
  }

  /** An int64 field's varint: a negative value as its 64-bit two's complement, ten bytes. */
  int64(value: number): void {
    if (value >= 0) {
      this.varint(value);
      return;
    }
    let unsigned = BigInt.asUintN(64, BigInt(value));
    this.room(10);
    while (unsigned > 0x7fn) {
      this.bytes[this.at++] = Number(unsigned & 0x7fn) | 0x80;
      unsigned >>= 7n;
    }
    this.bytes[this.at++] = Number(unsigned);
  }

  fixed32(value: number): void {
    this.room(4);
    this.at = this.bytes.writeUInt32LE(value >>> 0, this.at);
  }

  /** A fixed64 given as its low and high 32 bits. */
  fixed64(low: number, high: number): void {
    this.room(8);
    this.at = this.bytes.writeUInt32LE(low, this.at);
    this.at = this.bytes.writeUInt32LE(high, this.at);
  }

  double(value: number): void {
    this.room(8);
    this.at = this.bytes.writeDoubleLE(value, this.at);
  }

  /** A string's UTF-8 bytes, after their length. */
  string(value: string): void {
    const units = value.length;
    // Short ASCII, most strings a span holds, is copied here: cheaper than a call into the runtime.
    if (units < 128) {
      this.room(1 + units);
      const { bytes } = this;
      const start = this.at;
      let at = start + 1;
      for (let index = 0; index < units; index++) {
        const unit = value.charCodeAt(index);
        if (unit >= 0x80) {
          this.utf8(value);
          return;
        }
        bytes[at++] = unit;
      }
      bytes[start] = units;
      this.at = at;
      return;
    }
    this.utf8(value);
  }

  private utf8(value: string): void {
    const length = Buffer.byteLength(value);
    this.varint(length);
    this.room(length);
    this.at += this.bytes.write(value, this.at);
  }

  /** Bytes given as hexadecimal digits (a trace or span id), after their length. */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.room(length);
    const { bytes } = this;
    for (let index = 0; index < length; index++)
      bytes[this.at++] =
        (HEX_DIGITS[hex.charCodeAt(2 * index)] as number) * 16 +
        (HEX_DIGITS[hex.charCodeAt(2 * index + 1)] as number);
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** Starts a length-delimited field's contents, holding `expected` bytes for their length. */
  openLength(expected: number): number {
    this.room(expected);
    const start = this.at;
    this.at += expected;
    return start;
  }

  closeLength(start: number, expected: number): void {
    const length = this.at - start - expected;
    const size = varintSize(length);
    if (size !== expected) {
      this.room(size - expected);
      this.bytes.copyWithin(start + size, start + expected, this.at);
      this.at += size - expected;
    }
    varintAt(this.bytes, start, length);
  }
}
