import {
  type Code,
  f64,
  i32,
  ifElseI32,
  Locals,
  type WasmFunction,
  whileLoop,
} from './assembler.js';

/**
 * `spin` and `zoom` (pixels.ts), one 32-bit pixel at a time from the picture at `src` into
 * `dst`, with the same arithmetic as the JavaScript: the same double operations in the same
 * order, so every source position, and so every byte, is the same.
 */

/**
 * A source coordinate (pixels.ts): truncated on the screen, where that is flooring; else floored
 * and brought into 0..size-1 as `wrap` does. The caller keeps every position within 2^30 of the
 * screen, so it fits 32 bits. `whole` is a local for the floored position.
 */
function sourceCoordinate(locals: Locals, position: Code, size: Code, whole: string): Code {
  const value = locals.get(whole);
  const remainder = i32.remS(value, size);
  const wrapped = ifElseI32(
    i32.geS(value, i32.const(0)),
    ifElseI32(
      i32.ltS(value, size),
      value,
      ifElseI32(i32.ltS(value, i32.mul(size, i32.const(2))), i32.sub(value, size), remainder),
    ),
    ifElseI32(
      i32.geS(value, i32.sub(i32.const(0), size)),
      i32.add(value, size),
      ifElseI32(i32.ltS(remainder, i32.const(0)), i32.add(remainder, size), i32.const(0)),
    ),
  );
  return ifElseI32(
    i32.and(f64.ge(position, f64.const(0)), f64.lt(position, f64.convertI32S(size))),
    i32.truncF64S(position),
    [...locals.set(whole, i32.truncF64S(f64.floor(position))), ...wrapped],
  );
}

/** `spin`: each destination pixel from the inverse rotation of its centre about (cx, cy). */
export function spinKernel(): WasmFunction {
  const locals = new Locals({
    width: 'i32',
    height: 'i32',
    src: 'i32',
    dst: 'i32',
    cos: 'f64',
    sin: 'f64',
    cx: 'f64',
    cy: 'f64',
  });
  locals.declare('i32', 'x', 'y', 'px', 'py', 'to', 'whole');
  locals.declare('f64', 'ry', 'sx', 'sy');
  const { get, set } = locals;
  const halfMinusCx = f64.sub(f64.const(0.5), get('cx'));
  const body = [
    set('y', i32.const(0)),
    whileLoop(
      i32.ltS(get('y'), get('height')),
      set('ry', f64.sub(f64.add(f64.convertI32S(get('y')), f64.const(0.5)), get('cy'))),
      set(
        'sx',
        f64.add(
          f64.add(get('cx'), f64.mul(halfMinusCx, get('cos'))),
          f64.mul(get('ry'), get('sin')),
        ),
      ),
      set(
        'sy',
        f64.add(
          f64.sub(get('cy'), f64.mul(halfMinusCx, get('sin'))),
          f64.mul(get('ry'), get('cos')),
        ),
      ),
      set('to', i32.add(get('dst'), i32.mul(i32.mul(get('y'), get('width')), i32.const(4)))),
      set('x', i32.const(0)),
      whileLoop(
        i32.ltS(get('x'), get('width')),
        set('px', sourceCoordinate(locals, get('sx'), get('width'), 'whole')),
        set('py', sourceCoordinate(locals, get('sy'), get('height'), 'whole')),
        i32.store(
          0,
          i32.add(get('to'), i32.mul(get('x'), i32.const(4))),
          i32.load(
            0,
            i32.add(
              get('src'),
              i32.mul(i32.add(i32.mul(get('py'), get('width')), get('px')), i32.const(4)),
            ),
          ),
        ),
        set('sx', f64.add(get('sx'), get('cos'))),
        set('sy', f64.sub(get('sy'), get('sin'))),
        set('x', i32.add(get('x'), i32.const(1))),
      ),
      set('y', i32.add(get('y'), i32.const(1))),
    ),
  ].flat();
  return { name: 'spin', locals, body };
}

/**
 * `zoom`: each destination pixel from the source row `rows[y]` (a pixel index) and column
 * `columns[x]`, both worked out by the caller.
 */
export function zoomKernel(): WasmFunction {
  const locals = new Locals({
    width: 'i32',
    height: 'i32',
    src: 'i32',
    dst: 'i32',
    rows: 'i32',
    columns: 'i32',
  });
  locals.declare('i32', 'x', 'y', 'row', 'to');
  const { get, set } = locals;
  const word = (base: string, index: Code) => i32.add(get(base), i32.mul(index, i32.const(4)));
  const body = [
    set('y', i32.const(0)),
    set('to', get('dst')),
    whileLoop(
      i32.ltS(get('y'), get('height')),
      set('row', word('src', i32.load(0, word('rows', get('y'))))),
      set('x', i32.const(0)),
      whileLoop(
        i32.ltS(get('x'), get('width')),
        i32.store(
          0,
          get('to'),
          i32.load(
            0,
            i32.add(get('row'), i32.mul(i32.load(0, word('columns', get('x'))), i32.const(4))),
          ),
        ),
        set('to', i32.add(get('to'), i32.const(4))),
        set('x', i32.add(get('x'), i32.const(1))),
      ),
      set('y', i32.add(get('y'), i32.const(1))),
    ),
  ].flat();
  return { name: 'zoom', locals, body };
}
