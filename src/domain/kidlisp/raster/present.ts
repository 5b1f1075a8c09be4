/**
 * What the viewer sees of the program's layer. The reference draws a program into its own layer
 * and, every frame, pastes that layer onto a cleared screen (its `paste`): opaque pixels are
 * copied, translucent ones blended as `((a + 1) * src + (256 - (a + 1)) * dst) >> 8` with alpha
 * `min(255, dst + a)`, transparent ones skipped. Over the cleared screen that keeps opaque
 * programs byte for byte and darkens translucent pixels slightly, as the reference's frames do.
 */
export function presentLayer(layer: Uint8ClampedArray, screen: Uint8ClampedArray): void {
  screen.set(layer);
  for (let i = 3; i < layer.length; i += 4) {
    const a = layer[i] as number;
    if (a === 255) continue;
    const p = i - 3;
    if (a === 0) {
      screen[p] = 0;
      screen[p + 1] = 0;
      screen[p + 2] = 0;
      continue;
    }
    presentTranslucent(layer, screen, p, a);
  }
}

/** A translucent layer pixel pasted onto a cleared screen pixel: dst is 0, so only src counts. */
function presentTranslucent(
  layer: Uint8ClampedArray,
  screen: Uint8ClampedArray,
  i: number,
  a: number,
): void {
  const alpha = a + 1;
  screen[i] = (alpha * (layer[i] as number)) >> 8;
  screen[i + 1] = (alpha * (layer[i + 1] as number)) >> 8;
  screen[i + 2] = (alpha * (layer[i + 2] as number)) >> 8;
  screen[i + 3] = a;
}
