/**
 * A small WebAssembly writer for the runtime's pixel kernels: instructions are written as
 * folded expressions (an instruction after the expressions that push its operands, as in the
 * text format's `(i32.add (local.get $x) (i32.const 1))`), and `wasmModule` lays out the
 * binary format's sections around the functions. Only what the kernels use is here; opcode
 * numbers are the WebAssembly core specification's (2.0, with fixed-width SIMD).
 */

/** An instruction sequence: its bytes, operands first. */
export type Code = readonly number[];

export type ValueType = 'i32' | 'f64' | 'v128';
const TYPE_BYTES: Record<ValueType, number> = { i32: 0x7f, f64: 0x7c, v128: 0x7b };

export function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return bytes;
}

export function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0);
    bytes.push(done ? low : low | 0x80);
    if (done) return bytes;
  }
}

const join = (...parts: Code[]): number[] => parts.flat();
const op =
  (...opcode: number[]) =>
  (...operands: Code[]): Code =>
    join(...operands, opcode);
const simd = (opcode: number) => op(0xfd, ...unsignedLeb(opcode));
/** A memory access: alignment as a power of two, and a constant offset added to the address. */
const memory =
  (opcode: number[], align: number) =>
  (offset: number, ...operands: Code[]) =>
    join(...operands, opcode, unsignedLeb(align), unsignedLeb(offset));

/** Named locals of one function: parameters first (in the record's order), then the declared locals. */
export class Locals {
  private readonly index = new Map<string, number>();
  readonly params: ValueType[] = [];
  readonly declared: ValueType[] = [];

  constructor(params: Readonly<Record<string, ValueType>>) {
    for (const [name, type] of Object.entries(params)) {
      this.index.set(name, this.index.size);
      this.params.push(type);
    }
  }

  declare(type: ValueType, ...names: string[]): void {
    for (const name of names) {
      this.index.set(name, this.index.size);
      this.declared.push(type);
    }
  }

  private at(name: string): number[] {
    const index = this.index.get(name);
    if (index === undefined) throw new Error(`no local named ${name}`);
    return unsignedLeb(index);
  }

  get = (name: string): Code => [0x20, ...this.at(name)];
  set = (name: string, value: Code): Code => join(value, [0x21], this.at(name));
}

export const i32 = {
  const: (value: number): Code => [0x41, ...signedLeb(value)],
  add: op(0x6a),
  sub: op(0x6b),
  mul: op(0x6c),
  ltS: op(0x48),
  gtS: op(0x4a),
  geS: op(0x4e),
  /** Unsigned: a negative number is at least any size. */
  geU: op(0x4f),
  eqz: op(0x45),
  and: op(0x71),
  remS: op(0x6f),
  truncF64S: op(0xaa),
  load: memory([0x28], 2),
  store: memory([0x36], 2),
  /** `then` if `condition`, else `otherwise`. */
  select: (then: Code, otherwise: Code, condition: Code): Code =>
    join(then, otherwise, condition, [0x1b]),
};

export const f64 = {
  const: (value: number): Code => [0x44, ...new Uint8Array(new Float64Array([value]).buffer)],
  add: op(0xa0),
  sub: op(0xa1),
  mul: op(0xa2),
  floor: op(0x9c),
  ge: op(0x66),
  lt: op(0x63),
  convertI32S: op(0xb7),
};

export const i64 = {
  const: (value: number): Code => [0x42, ...signedLeb(value)],
  load: memory([0x29], 3),
  store: memory([0x37], 3),
};

export const v128 = {
  load: memory([0xfd, 0x00], 0),
  store: memory([0xfd, 0x0b], 0),
  /** Eight bytes, each widened to a 16-bit lane. */
  load8x8U: memory([0xfd, 0x02], 0),
  /** Lane 0 (the low eight bytes) stored. */
  store64Lane0: (offset: number, address: Code, value: Code): Code =>
    join(address, value, [0xfd, 0x5b, 0, ...unsignedLeb(offset), 0]),
  zero: (): Code => [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  and: simd(0x4e),
  or: simd(0x50),
  not: simd(0x4d),
  /** Bits of `then` where `mask` is set, of `otherwise` where it is clear. */
  bitselect: simd(0x52),
  anyTrue: simd(0x53),
};

export const i16x8 = {
  splat: simd(0x10),
  add: simd(0x8e),
  sub: simd(0x91),
  mul: simd(0x95),
  shrU: simd(0x8d),
  extendLowI8x16U: simd(0x89),
  extendHighI8x16U: simd(0x8a),
  narrowI32x4U: simd(0x86),
};

export const i32x4 = {
  splat: simd(0x11),
  eq: simd(0x37),
  extmulLowI16x8U: simd(0xbe),
  extmulHighI16x8U: simd(0xbf),
  shrU: simd(0xad),
};

export const i8x16 = {
  narrowI16x8U: simd(0x66),
  /** Lane i of the result is byte `lanes[i]` of `a` then `b` (0-15 from a, 16-31 from b). */
  shuffle: (lanes: readonly number[], a: Code, b: Code): Code =>
    join(a, b, [0xfd, 0x0d], [...lanes]),
};

/** `block ... end`: `br` to its depth leaves it. */
export const block = (...body: Code[]): Code => join([0x02, 0x40], ...body, [0x0b]);
/** `loop ... end`: `br` to its depth starts it again. */
export const loop = (...body: Code[]): Code => join([0x03, 0x40], ...body, [0x0b]);
export const brIf = (depth: number, condition: Code): Code =>
  join(condition, [0x0d], unsignedLeb(depth));
/** `if ... end` without an else. */
export const ifThen = (condition: Code, ...body: Code[]): Code =>
  join(condition, [0x04, 0x40], ...body, [0x0b]);
export const br = (depth: number): Code => [0x0c, ...unsignedLeb(depth)];

/** `while (condition) { body }`: the body's `continue` is `br(0)`, leaving is `br(1)`. */
export const whileLoop = (condition: Code, ...body: Code[]): Code =>
  block(loop(brIf(1, i32.eqz(condition)), ...body, br(0)));

export interface WasmFunction {
  name: string;
  locals: Locals;
  body: Code;
}

const section = (id: number, content: number[]): number[] => [
  id,
  ...unsignedLeb(content.length),
  ...content,
];
const vector = (items: number[][]): number[] => [...unsignedLeb(items.length), ...items.flat()];
const utf8 = (text: string): number[] => {
  const bytes = [...new TextEncoder().encode(text)];
  return [...unsignedLeb(bytes.length), ...bytes];
};

/** A module exporting `functions` (each returning nothing) and its memory. */
export function wasmModule(
  functions: readonly WasmFunction[],
  memoryPages: number,
): Uint8Array<ArrayBuffer> {
  const types = functions.map((fn) => [
    0x60,
    ...vector(fn.locals.params.map((type) => [TYPE_BYTES[type]])),
    0,
  ]);
  const bodies = functions.map((fn) => {
    const groups = fn.locals.declared.map((type) => [1, TYPE_BYTES[type]]);
    const content = [...vector(groups), ...fn.body, 0x0b];
    return [...unsignedLeb(content.length), ...content];
  });
  const exports = [
    ...functions.map((fn, index) => [...utf8(fn.name), 0x00, ...unsignedLeb(index)]),
    [...utf8('memory'), 0x02, 0],
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, index) => unsignedLeb(index)))),
    ...section(5, vector([[0x00, ...unsignedLeb(memoryPages)]])),
    ...section(7, vector(exports)),
    ...section(10, vector(bodies)),
  ]);
}
