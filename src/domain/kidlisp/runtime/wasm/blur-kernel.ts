import {
  type Code,
  i8x16,
  i16x8,
  i32,
  i32x4,
  i64,
  ifThen,
  Locals,
  v128,
  type WasmFunction,
  whileLoop,
} from './assembler.js';

/**
 * `blur` for radii 1 to 7 in WebAssembly's 128-bit lanes: the box blur of box-blur.ts (the same
 * sums, the same bytes), two pixels at a time, each channel in a 16-bit lane (a box of at most
 * 15 x 15 bytes sums to at most 57,375, so every sum fits).
 *
 * Memory, laid out by the caller: the picture at `src`, the blurred picture written at `dst`,
 * and at `cols` one 8-byte column sum (four 16-bit lanes) a column with PAD columns on each
 * side repeating the edge columns, so the running sum along a row never clamps.
 *
 * Row by row: the column sums move down one row (row y+r comes in, row y-r-1 goes out, edges
 * repeated), then a running sum along the row keeps the box sums of pixels x and x+1 in one
 * vector, and each sum becomes its byte by `(sum + round) * multiplier >> shift`, which the
 * caller has checked equals the sum divided by the box's area, rounded to the nearest, for
 * every sum of that area.
 */
export const PAD = 11;

const PARAMS = {
  width: 'i32',
  height: 'i32',
  radius: 'i32',
  src: 'i32',
  dst: 'i32',
  cols: 'i32',
  round: 'i32',
  multiplier: 'i32',
  shift: 'i32',
} as const;

export function blurKernel(): WasmFunction {
  const locals = new Locals(PARAMS);
  locals.declare('i32', 'x', 'y', 'i', 'row', 'added', 'removed', 'origin', 'rowBytes', 'out');
  locals.declare('v128', 'sums', 'rounding', 'multiplied');
  const { get, set } = locals;
  const increment = (name: string, by: number) => set(name, i32.add(get(name), i32.const(by)));
  /** The address of column `index`'s sum. */
  const column = (index: Code) => i32.add(get('origin'), i32.mul(index, i32.const(8)));
  const pixel = (rowAddress: Code, x: Code) => i32.add(rowAddress, i32.mul(x, i32.const(4)));
  const lastRow = i32.sub(get('height'), i32.const(1));
  const clampRow = (row: Code) => {
    const low = i32.select(i32.const(0), row, i32.ltS(row, i32.const(0)));
    return i32.select(lastRow, low, i32.gtS(low, lastRow));
  };
  const rowAddress = (row: Code) => i32.add(get('src'), i32.mul(row, get('rowBytes')));
  const atColumn = (offset: Code) => v128.load(0, column(i32.add(get('x'), offset)));

  /** Each column pair's sums changed by `change(x)` (two columns, eight lanes). */
  const eachColumnPair = (change: Code) =>
    [
      set('x', i32.const(0)),
      whileLoop(
        i32.ltS(get('x'), get('width')),
        v128.store(0, column(get('x')), i16x8.add(v128.load(0, column(get('x'))), change)),
        increment('x', 2),
      ),
    ].flat();

  const startColumns = [
    set('x', i32.const(-PAD)),
    whileLoop(
      i32.ltS(get('x'), i32.add(get('width'), i32.const(PAD))),
      i64.store(0, column(get('x')), i64.const(0)),
      increment('x', 1),
    ),
    set('i', i32.sub(i32.const(0), get('radius'))),
    whileLoop(
      i32.ltS(get('i'), i32.add(get('radius'), i32.const(1))),
      set('row', rowAddress(clampRow(get('i')))),
      eachColumnPair(v128.load8x8U(0, pixel(get('row'), get('x')))),
      increment('i', 1),
    ),
  ].flat();

  const moveColumnsDown = [
    set('added', rowAddress(clampRow(i32.add(get('y'), get('radius'))))),
    set('removed', rowAddress(clampRow(i32.sub(i32.sub(get('y'), get('radius')), i32.const(1))))),
    eachColumnPair(
      i16x8.sub(
        v128.load8x8U(0, pixel(get('added'), get('x'))),
        v128.load8x8U(0, pixel(get('removed'), get('x'))),
      ),
    ),
  ].flat();

  const repeatEdgeColumns = [
    set('i', i32.const(1)),
    whileLoop(
      i32.ltS(get('i'), i32.const(PAD + 1)),
      i64.store(0, column(i32.sub(i32.const(0), get('i'))), i64.load(0, column(i32.const(0)))),
      i64.store(
        0,
        column(i32.add(i32.sub(get('width'), i32.const(1)), get('i'))),
        i64.load(0, column(i32.sub(get('width'), i32.const(1)))),
      ),
      increment('i', 1),
    ),
  ].flat();

  // Lanes 0-3: pixel x's sums; lanes 4-7: pixel x+1's.
  const firstSums = [
    set('sums', v128.zero()),
    set('i', i32.sub(i32.const(0), get('radius'))),
    whileLoop(
      i32.ltS(get('i'), i32.add(get('radius'), i32.const(1))),
      set('sums', i16x8.add(get('sums'), v128.load(0, column(get('i'))))),
      increment('i', 1),
    ),
  ].flat();

  const bytesOf = (half: typeof i32x4.extmulLowI16x8U) =>
    i32x4.shrU(half(i16x8.add(get('sums'), get('rounding')), get('multiplied')), get('shift'));
  const twoPixels = i8x16.narrowI16x8U(
    i16x8.narrowI32x4U(bytesOf(i32x4.extmulLowI16x8U), bytesOf(i32x4.extmulHighI16x8U)),
    v128.zero(),
  );
  const r = get('radius');
  const averageRow = [
    set('out', i32.add(get('dst'), i32.mul(get('y'), get('rowBytes')))),
    set('x', i32.const(0)),
    whileLoop(
      i32.ltS(get('x'), get('width')),
      v128.store64Lane0(0, pixel(get('out'), get('x')), twoPixels),
      // Two steps right: columns x+r+1 and x+r+2 come in, x-r and x-r+1 go out.
      set(
        'sums',
        i16x8.add(
          i16x8.add(
            get('sums'),
            i16x8.sub(atColumn(i32.add(r, i32.const(1))), atColumn(i32.sub(i32.const(0), r))),
          ),
          i16x8.sub(atColumn(i32.add(r, i32.const(2))), atColumn(i32.sub(i32.const(1), r))),
        ),
      ),
      increment('x', 2),
    ),
  ].flat();

  const body = [
    set('rowBytes', i32.mul(get('width'), i32.const(4))),
    set('origin', i32.add(get('cols'), i32.const(PAD * 8))),
    set('rounding', i16x8.splat(get('round'))),
    set('multiplied', i16x8.splat(get('multiplier'))),
    startColumns,
    set('y', i32.const(0)),
    whileLoop(
      i32.ltS(get('y'), get('height')),
      ifThen(i32.geS(get('y'), i32.const(1)), moveColumnsDown),
      repeatEdgeColumns,
      firstSums,
      averageRow,
      increment('y', 1),
    ),
  ].flat();
  return { name: 'blur', locals, body };
}
