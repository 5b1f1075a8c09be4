import {
  type Code,
  i8x16,
  i16x8,
  i32,
  i32x4,
  ifThen,
  Locals,
  v128,
  type WasmFunction,
  whileLoop,
} from './assembler.js';

/**
 * One layer drawn over the screen (layers.ts `overWords`), four pixels a vector, bytes in
 * R, G, B, A order: a clear layer pixel leaves the screen's, an opaque one replaces it, and a
 * translucent one over an opaque screen pixel is blended as a point is, each channel
 * `((a + 1) * layer + (255 - a) * screen) >> 8` with the screen staying opaque.
 *
 * A translucent layer pixel over a screen pixel that is not opaque takes the slower rule of
 * `blendPixel`: the kernel leaves such a pixel as it was and lists its group of four (the index
 * of the group's first pixel) for the caller, after the list's length, at `deferred`.
 *
 * `count` pixels are read; the caller pads the layer with clear pixels to a multiple of four.
 */
export function composeKernel(): WasmFunction {
  const locals = new Locals({ count: 'i32', layer: 'i32', screen: 'i32', deferred: 'i32' });
  locals.declare('i32', 'p', 'listed');
  locals.declare('v128', 'over', 'under', 'clear', 'slow', 'alphas', 'weightLow', 'weightHigh');
  const { get, set } = locals;
  const alphaOf = (pixels: Code) => i32x4.shrU(pixels, i32.const(24));
  const alphaIs = (pixels: Code, value: number) =>
    i32x4.eq(alphaOf(pixels), i32x4.splat(i32.const(value)));
  const byteAt = (name: string) => i32.add(get(name), i32.mul(get('p'), i32.const(4)));
  /** Each 16-bit channel of two pixels: `(weight * layer + (256 - weight) * screen) >> 8`. */
  const blendHalf = (weight: string, widen: typeof i16x8.extendLowI8x16U) =>
    i16x8.shrU(
      i16x8.add(
        i16x8.mul(get(weight), widen(get('over'))),
        i16x8.mul(i16x8.sub(i16x8.splat(i32.const(256)), get(weight)), widen(get('under'))),
      ),
      i32.const(8),
    );
  const ALPHA_BYTES = [3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15];
  const one = i16x8.splat(i32.const(1));

  const body = [
    set('listed', i32.const(0)),
    set('p', i32.const(0)),
    whileLoop(
      i32.ltS(get('p'), get('count')),
      set('over', v128.load(0, byteAt('layer'))),
      set('under', v128.load(0, byteAt('screen'))),
      set('clear', alphaIs(get('over'), 0)),
      // Translucent over a screen pixel that is not opaque: left for the caller.
      set(
        'slow',
        v128.not(
          v128.or(v128.or(get('clear'), alphaIs(get('over'), 255)), alphaIs(get('under'), 255)),
        ),
      ),
      set('alphas', i8x16.shuffle(ALPHA_BYTES, get('over'), get('over'))),
      set('weightLow', i16x8.add(i16x8.extendLowI8x16U(get('alphas')), one)),
      set('weightHigh', i16x8.add(i16x8.extendHighI8x16U(get('alphas')), one)),
      v128.store(
        0,
        byteAt('screen'),
        v128.bitselect(
          get('under'),
          v128.or(
            i8x16.narrowI16x8U(
              blendHalf('weightLow', i16x8.extendLowI8x16U),
              blendHalf('weightHigh', i16x8.extendHighI8x16U),
            ),
            i32x4.splat(i32.const(0xff000000 | 0)),
          ),
          v128.or(get('clear'), get('slow')),
        ),
      ),
      ifThen(
        v128.anyTrue(get('slow')),
        i32.store(4, i32.add(get('deferred'), i32.mul(get('listed'), i32.const(4))), get('p')),
        set('listed', i32.add(get('listed'), i32.const(1))),
      ),
      set('p', i32.add(get('p'), i32.const(4))),
    ),
    i32.store(0, get('deferred'), get('listed')),
  ].flat();
  return { name: 'compose', locals, body };
}
