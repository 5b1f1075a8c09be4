/**
 * Writes `value` (an integer from 0 below 2^32) as an unsigned LEB128 varint, the encoding of
 * protobuf and of the embedded database's posting blocks, into `out` at `at`; returns where it
 * ends. The caller makes room for up to 5 bytes.
 */
export function varintAt(out: Uint8Array, at: number, value: number): number {
  let end = at;
  let rest = value;
  while (rest >= 0x80) {
    out[end++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  out[end++] = rest;
  return end;
}
