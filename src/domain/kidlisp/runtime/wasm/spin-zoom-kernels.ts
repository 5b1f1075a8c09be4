import { type Code, f64, i32, ifThen, Locals, type WasmFunction, whileLoop } from './assembler.js';

/**
 * `spin` and `zoom` (pixels.ts), one 32-bit pixel at a time from the picture at `src` into
 * `dst`, with the same arithmetic as the JavaScript: the same double operations in the same
 * order, so every source position, and so every byte, is the same.
 */

/**
 * Local `name` set to a source coordinate (pixels.ts): the floor of `position` brought into
 * 0..size-1 as `wrap` does (on the screen, pixels.ts truncates, which is the same number). The
 * floor is a truncation less one for a negative fraction: cheaper here than `f64.floor`. The
 * caller keeps every position within 2^30 of the screen, so it fits 32 bits.
 */
function sourceCoordinate(locals: Locals, position: string, size: Code, name: string): Code {
  const { get, set } = locals;
  const value = get(name);
  return [
    set(name, i32.truncF64S(get(position))),
    ifThen(
      f64.lt(get(position), f64.const(0)),
      set(name, i32.sub(value, f64.lt(get(position), f64.convertI32S(value)))),
    ),
    // Off the screen: one period away costs an addition or a subtraction, further a remainder.
    ifThen(
      i32.geU(value, size),
      set(
        name,
        i32.select(i32.add(value, size), i32.sub(value, size), i32.ltS(value, i32.const(0))),
      ),
      ifThen(i32.geU(value, size), set(name, i32.remS(i32.add(i32.remS(value, size), size), size))),
    ),
  ].flat();
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
  locals.declare('i32', 'x', 'y', 'px', 'py', 'to');
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
        sourceCoordinate(locals, 'sx', get('width'), 'px'),
        sourceCoordinate(locals, 'sy', get('height'), 'py'),
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
