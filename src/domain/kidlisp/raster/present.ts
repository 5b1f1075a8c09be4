/**
 * What the viewer sees of the program's layer. The reference draws a program into its own layer
 * and, every frame, pastes that layer onto a cleared screen (its `paste`): opaque pixels are
 * copied, translucent ones blended as `((a + 1) * src + (256 - (a + 1)) * dst) >> 8` with alpha
 * `min(255, dst + a)`, transparent ones skipped. Over the cleared screen that keeps opaque
 * programs byte for byte and darkens translucent pixels slightly, as the reference's frames do.
 */
export function presentLayer(layer: Uint8ClampedArray, screen: Uint8ClampedArray): void {
  screen.fill(0);
  for (let i = 0; i < layer.length; i += 4) {
    const a = layer[i + 3] as number;
    if (a === 0) continue;
    if (a === 255) {
      screen[i] = layer[i] as number;
      screen[i + 1] = layer[i + 1] as number;
      screen[i + 2] = layer[i + 2] as number;
      screen[i + 3] = 255;
      continue;
    }
    const alpha = a + 1;
    const inverse = 256 - alpha;
    screen[i] = (alpha * (layer[i] as number) + inverse * (screen[i] as number)) >> 8;
    screen[i + 1] = (alpha * (layer[i + 1] as number) + inverse * (screen[i + 1] as number)) >> 8;
    screen[i + 2] = (alpha * (layer[i + 2] as number) + inverse * (screen[i + 2] as number)) >> 8;
    screen[i + 3] = Math.min(255, (screen[i + 3] as number) + a);
  }
}
