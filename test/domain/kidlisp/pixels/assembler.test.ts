import { describe, expect, it } from 'vitest';
import {
  i32,
  Locals,
  signedLeb,
  unsignedLeb,
  wasmModule,
  whileLoop,
} from '../../../../src/domain/kidlisp/runtime/wasm/assembler.js';

describe('the WebAssembly writer', () => {
  it('encodes LEB128 numbers as the binary format does', () => {
    // The examples of the LEB128 article the WebAssembly specification cites.
    expect(unsignedLeb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(signedLeb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(unsignedLeb(0)).toEqual([0]);
    expect(signedLeb(64)).toEqual([0xc0, 0x00]);
    expect(signedLeb(-1)).toEqual([0x7f]);
  });

  it('writes a module that compiles and runs: a loop summing 1..n into memory', () => {
    const locals = new Locals({ n: 'i32', at: 'i32' });
    locals.declare('i32', 'i', 'sum');
    const { get, set } = locals;
    const body = [
      set('i', i32.const(1)),
      whileLoop(
        i32.ltS(get('i'), i32.add(get('n'), i32.const(1))),
        set('sum', i32.add(get('sum'), get('i'))),
        set('i', i32.add(get('i'), i32.const(1))),
      ),
      i32.store(0, get('at'), get('sum')),
    ].flat();
    const bytes = wasmModule([{ name: 'sum', locals, body }], 1);
    expect(WebAssembly.validate(bytes)).toBe(true);
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    (exports.sum as (n: number, at: number) => void)(100, 8);
    expect(new Int32Array((exports.memory as WebAssembly.Memory).buffer)[2]).toBe(5050);
  });
});
