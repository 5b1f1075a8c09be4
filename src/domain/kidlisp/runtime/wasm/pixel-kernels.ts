import type { PixelBlock } from '../types.js';
import { wasmModule } from './assembler.js';
import { blurKernel, PAD } from './blur-kernel.js';
import { composeKernel } from './compose-kernel.js';
import { spinKernel, zoomKernel } from './spin-zoom-kernels.js';

/**
 * The runtime's pixel kernels in WebAssembly, compiled on first use. Where WebAssembly or its
 * 128-bit lanes are missing, a page's content security policy forbids compiling it, or its
 * memory cannot grow to a picture's size, nothing here runs and the callers keep their
 * JavaScript.
 */

const PAGE = 65536;
/** The largest blur radius the kernel takes: a box sum of 15 x 15 bytes fits 16 bits. */
const KERNEL_BLUR_RADIUS = 7;

type Kernel = (...parameters: number[]) => void;

interface Kernels {
  memory: WebAssembly.Memory;
  blur: Kernel;
  compose: Kernel;
  spin: Kernel;
  zoom: Kernel;
}

let kernels: Kernels | null | undefined;

function compiled(): Kernels | null {
  if (kernels !== undefined) return kernels;
  try {
    const bytes = wasmModule([blurKernel(), composeKernel(), spinKernel(), zoomKernel()], 1);
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    kernels = {
      memory: exports.memory as WebAssembly.Memory,
      blur: exports.blur as Kernel,
      compose: exports.compose as Kernel,
      spin: exports.spin as Kernel,
      zoom: exports.zoom as Kernel,
    };
  } catch {
    kernels = null;
  }
  return kernels;
}

/** `(sum + round) * multiplier >> shift` is the sum divided by the area, rounded to the nearest. */
interface Division {
  round: number;
  multiplier: number;
  shift: number;
}

const divisions = new Map<number, Division | null>();

/**
 * The division by a box's (odd) area for every box sum of it, as a multiplication by a 16-bit
 * number and a shift: the smallest shift whose multiplier gives every sum's byte exactly,
 * checked here sum by sum (at most 57,488 of them, once an area).
 */
export function divisionFor(area: number): Division | null {
  const known = divisions.get(area);
  if (known !== undefined) return known;
  const round = (area - 1) / 2;
  const largest = area * 255 + round;
  let found: Division | null = null;
  for (let shift = 16; shift < 32 && found === null; shift++) {
    const multiplier = Math.ceil(2 ** shift / area);
    if (multiplier > 0xffff) break;
    let exact = true;
    for (let n = 0; n <= largest && exact; n++)
      exact = Math.floor((n * multiplier) / 2 ** shift) === Math.floor(n / area);
    if (exact) found = { round, multiplier, shift };
  }
  divisions.set(area, found);
  return found;
}

const aligned = (address: number) => Math.ceil(address / 16) * 16;

/** The kernels' memory, grown to at least `size` bytes, as bytes; null where it cannot grow. */
function memoryOf(kernel: Kernels, size: number): Uint8Array | null {
  const { memory } = kernel;
  try {
    if (memory.buffer.byteLength < size)
      memory.grow(Math.ceil((size - memory.buffer.byteLength) / PAGE));
  } catch {
    return null;
  }
  return new Uint8Array(memory.buffer);
}

/** Blurs `block` by box-blur.ts's rule in the kernel; false (nothing done) where it cannot. */
export function blurInKernel(block: PixelBlock, radius: number): boolean {
  if (radius < 1 || radius > KERNEL_BLUR_RADIUS) return false;
  const division = divisionFor((2 * radius + 1) ** 2);
  const kernel = compiled();
  if (division === null || kernel === null) return false;
  const { width, height, data } = block;
  const size = width * height * 4;
  // Slack after each area: a step of two pixels may read or write one past a row's end.
  const dst = aligned(size + 16);
  const cols = aligned(dst + size + 16);
  const bytes = memoryOf(kernel, cols + (width + 2 * PAD) * 8 + 16);
  if (bytes === null) return false;
  bytes.set(data, 0);
  kernel.blur(
    width,
    height,
    radius,
    0,
    dst,
    cols,
    division.round,
    division.multiplier,
    division.shift,
  );
  data.set(bytes.subarray(dst, dst + size));
  return true;
}

/** How a translucent pixel is drawn over a screen pixel that is not opaque (`blendPixel`). */
export type SlowBlend = (
  screen: Uint8ClampedArray,
  i: number,
  r: number,
  g: number,
  b: number,
  a: number,
) => void;

/**
 * Draws `layers` over `screen` in order (layers.ts `overWords`' rule) in the kernel, the
 * pixels the kernel leaves by `slowBlend`; false (nothing done) where the kernel cannot run.
 */
export function composeInKernel(
  screen: Uint8ClampedArray,
  layers: readonly Uint8ClampedArray[],
  slowBlend: SlowBlend,
): boolean {
  const kernel = compiled();
  if (kernel === null) return false;
  const size = screen.length;
  const padded = aligned(size);
  const layerAt = padded;
  const deferred = layerAt + padded;
  const bytes = memoryOf(kernel, deferred + 4 + padded);
  if (bytes === null) return false;
  bytes.set(screen, 0);
  bytes.fill(0, size, padded);
  for (const layer of layers) {
    bytes.set(layer, layerAt);
    bytes.fill(0, layerAt + size, layerAt + padded);
    kernel.compose(padded / 4, layerAt, 0, deferred);
    blendDeferred(kernel, bytes, layer, deferred, slowBlend);
  }
  screen.set(bytes.subarray(0, size));
  return true;
}

/** The groups of four the kernel listed: each translucent pixel over one not opaque. */
function blendDeferred(
  kernel: Kernels,
  bytes: Uint8Array,
  layer: Uint8ClampedArray,
  deferred: number,
  slowBlend: SlowBlend,
): void {
  const list = new Int32Array(kernel.memory.buffer, deferred);
  const listed = list[0] as number;
  if (listed === 0) return;
  const screen = new Uint8ClampedArray(bytes.buffer, 0, layer.length);
  for (let n = 1; n <= listed; n++) {
    const first = list[n] as number;
    for (let i = first * 4; i < Math.min(first + 4, layer.length / 4) * 4; i += 4) {
      const a = layer[i + 3] as number;
      if (a === 0 || a === 255 || screen[i + 3] === 255) continue;
      slowBlend(screen, i, layer[i] as number, layer[i + 1] as number, layer[i + 2] as number, a);
    }
  }
}

/**
 * Runs `transform`, a kernel reading the picture at 0 and writing the new one at `dst`, with
 * `tables` copied in after them (their addresses handed over); false where it cannot run.
 */
function transformInKernel(
  block: PixelBlock,
  tables: readonly Int32Array[],
  transform: (kernel: Kernels, dst: number, tableAt: number[]) => void,
): boolean {
  const kernel = compiled();
  if (kernel === null) return false;
  const size = block.data.length;
  const dst = aligned(size + 16);
  const tableAt: number[] = [];
  let end = aligned(dst + size);
  for (const table of tables) {
    tableAt.push(end);
    end = aligned(end + table.byteLength);
  }
  const bytes = memoryOf(kernel, end);
  if (bytes === null) return false;
  bytes.set(block.data, 0);
  const words = new Int32Array(bytes.buffer);
  for (const [index, table] of tables.entries()) words.set(table, (tableAt[index] as number) / 4);
  transform(kernel, dst, tableAt);
  block.data.set(bytes.subarray(dst, dst + size));
  return true;
}

/** Source positions this far from the screen still fit the kernels' 32-bit arithmetic. */
const NEAR = 2 ** 20;

/** `spin` (pixels.ts `spinPixels`) in the kernel, for a centre within 2^20 pixels of the screen. */
export function spinInKernel(
  block: PixelBlock,
  cos: number,
  sin: number,
  cx: number,
  cy: number,
): boolean {
  const { width, height } = block;
  if (!(Math.abs(cx) < NEAR && Math.abs(cy) < NEAR && width < NEAR && height < NEAR)) return false;
  return transformInKernel(block, [], (kernel, dst) =>
    kernel.spin(width, height, 0, dst, cos, sin, cx, cy),
  );
}

/** `zoom` (pixels.ts `zoomPixels`) in the kernel: `rows[y]` is a pixel index, `columns[x]` a column. */
export function zoomInKernel(block: PixelBlock, rows: Int32Array, columns: Int32Array): boolean {
  return transformInKernel(block, [rows, columns], (kernel, dst, [rowsAt, columnsAt]) =>
    kernel.zoom(block.width, block.height, 0, dst, rowsAt as number, columnsAt as number),
  );
}
