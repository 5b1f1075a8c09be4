/**
 * `bake` and `burn`: the layers a program draws on, as the reference runtime composes them
 * (aesthetic.computer's kidlisp.mjs).
 *
 * - Until a program first bakes or burns, it draws straight on its screen (no layer, no cost).
 * - From then on, every frame starts on layer 0 (what was on the screen at that moment, kept
 *   across frames). Each `bake` in a frame moves drawing to the next bake layer: the first `bake`
 *   to bake layer 1, the second to 2, and so on. A bake layer starts transparent and keeps what
 *   was drawn on it across frames, so pixels accumulate there as they do on the screen.
 * - At the end of a frame the screen shows layer 0 with every bake layer drawn over it, in order
 *   (source-over, the reference's `paste` rule), each layer in one pass over the screen.
 * - `burn` draws layer 0 and the bake layers not burnt yet into one picture, and drawing goes on
 *   there (`(burn) (blur 8)` blurs the whole stack). That picture lasts one frame: the screen
 *   shows it as it is, and the layers under it keep their own pixels.
 *
 * Every buffer is made once and reused: a frame allocates no pixels.
 */
import { blendPixel, type Ink } from '../raster/pixels.js';
import type { Area, Paint, PixelBlock, Surface } from './types.js';
import { composeInKernel } from './wasm/pixel-kernels.js';

const TRANSPARENT: Paint = { kind: 'solid', color: [0, 0, 0, 0] };

/** Whether a 32-bit word holds a pixel's alpha in its top byte (true on every platform run today). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Draws the layers over `out`, which holds layer 0 already, in order: each layer in one pass
 * over the screen (measured faster than visiting every layer at each pixel). A clear layer pixel
 * is skipped and an opaque one copied whole, both read as one 32-bit word; a translucent one is
 * blended as a point is (`blendPixel`, its opaque-screen case written inline).
 */
function composeOver(out: PixelBlock, layers: readonly PixelBlock[]): void {
  if (layers.length === 0) return;
  const data = out.data;
  if (
    composeInKernel(
      data,
      layers.map((layer) => layer.data),
      blendOne,
    )
  )
    return;
  const aligned = LITTLE_ENDIAN && data.byteOffset % 4 === 0;
  const words = aligned ? wordsOf(data) : undefined;
  for (const layer of layers) {
    const source = layer.data;
    if (words === undefined || source.byteOffset % 4 !== 0) blendAll(data, source);
    else overWords(data, words, wordsOf(source));
  }
}

/**
 * One layer's words over the screen's: clear skipped, opaque copied, a translucent one over an
 * opaque screen pixel blended in the word (`blendPixel`'s rule: every channel stays within
 * 0..255, so no clamping is lost), the rest by `blendOne`.
 */
function overWords(data: Uint8ClampedArray, words: Uint32Array, source: Uint32Array): void {
  for (let p = 0; p < source.length; p++) {
    const word = source[p] as number;
    if (word < 0x1000000) continue;
    if (word >= 0xff000000) {
      words[p] = word;
      continue;
    }
    const under = words[p] as number;
    const weight = (word >>> 24) + 1;
    if (under < 0xff000000) {
      blendOne(data, p * 4, word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, weight - 1);
      continue;
    }
    const keep = 256 - weight;
    const r = (weight * (word & 0xff) + keep * (under & 0xff)) >> 8;
    const g = (weight * ((word >>> 8) & 0xff) + keep * ((under >>> 8) & 0xff)) >> 8;
    const b = (weight * ((word >>> 16) & 0xff) + keep * ((under >>> 16) & 0xff)) >> 8;
    words[p] = (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
  }
}

const ink: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };

/** `blendPixel` of one color at byte `i`, its opaque-screen case inline (the common one). */
function blendOne(data: Uint8ClampedArray, i: number, r: number, g: number, b: number, a: number) {
  if (data[i + 3] === 255) {
    const weight = a + 1;
    const keep = 256 - weight;
    data[i] = (weight * r + keep * (data[i] as number)) >> 8;
    data[i + 1] = (weight * g + keep * (data[i + 1] as number)) >> 8;
    data[i + 2] = (weight * b + keep * (data[i + 2] as number)) >> 8;
    return;
  }
  ink.r = r;
  ink.g = g;
  ink.b = b;
  ink.a = a;
  blendPixel(data, i, ink);
}

/** The same composition byte by byte, for buffers a word view cannot read. */
function blendAll(data: Uint8ClampedArray, source: Uint8ClampedArray): void {
  for (let i = 0; i < data.length; i += 4) {
    const alpha = source[i + 3] as number;
    if (alpha === 0) continue;
    blendOne(data, i, source[i] as number, source[i + 1] as number, source[i + 2] as number, alpha);
  }
}

/** The bytes as 32-bit words (one a pixel). */
const wordsOf = (data: Uint8ClampedArray): Uint32Array =>
  new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);

/** Copies `from`'s pixels into `to` (same size). */
function copyInto(to: Surface, from: Surface): void {
  const block = to.getPixels();
  block.data.set(from.getPixels().data);
  to.putPixels(block);
}

export class Layers {
  /** The surface the interpreter draws on; it forwards to whichever layer is current. */
  readonly surface: Surface;
  private current: Surface;
  /** Layer 0 once the program has used layers; undefined before (it draws on the screen). */
  private base: Surface | undefined;
  /** Bake layers in order; a burnt one is inside the burnt picture until its `bake` comes again. */
  private readonly bakes: { surface: Surface; burnt: boolean }[] = [];
  /** How many bake layers this frame has reached (the current one is bakes[reached - 1]). */
  private reached = 0;
  private burnt: Surface | undefined;
  private burntThisFrame = false;
  /** The `mask` drawing is clipped to, on whichever layer is drawn on. */
  private clipArea: Area | undefined;

  constructor(
    private readonly screen: Surface,
    private readonly createSurface: ((width: number, height: number) => Surface) | undefined,
  ) {
    this.current = screen;
    this.surface = {
      ...forwardingSurface(screen.width, screen.height, () => this.current),
      clip: (area) => {
        this.clipArea = area;
        this.current.clip?.(area);
      },
    };
  }

  /** Drawing moves to `layer`, clipped as the `mask` says (draw-view.ts). */
  private drawOn(layer: Surface): void {
    this.current = layer;
    layer.clip?.(this.clipArea);
  }

  /** Whether layers can be made here (an offscreen surface is needed for each). */
  get available(): boolean {
    return this.createSurface !== undefined;
  }

  /** Called before a frame's first form: drawing starts on layer 0. */
  startFrame(): void {
    this.reached = 0;
    this.burntThisFrame = false;
    if (this.base !== undefined) this.drawOn(this.base);
  }

  /** `bake`: drawing moves to the next bake layer (made transparent the first time). */
  bake(): void {
    const base = this.ensureBase();
    if (base === undefined) return;
    let layer = this.bakes[this.reached];
    if (layer === undefined) {
      layer = { surface: this.blank(), burnt: false };
      this.bakes.push(layer);
    }
    layer.burnt = false;
    this.reached++;
    this.drawOn(layer.surface);
  }

  /** `burn`: layer 0 and the bake layers not burnt yet, drawn into one picture drawn on next. */
  burn(): void {
    const base = this.ensureBase();
    if (base === undefined) return;
    this.burnt ??= this.blank();
    copyInto(this.burnt, base);
    const block = this.burnt.getPixels();
    composeOver(block, this.unburnt());
    this.burnt.putPixels(block);
    for (const layer of this.bakes) layer.burnt = true;
    this.burntThisFrame = true;
    this.drawOn(this.burnt);
  }

  /**
   * After a frame's last form: the screen shows the burnt picture, or layer 0 with every bake
   * layer not burnt over it (a layer whose `bake` this frame did not reach still shows).
   */
  present(): void {
    if (this.base === undefined) return;
    const shown = this.burntThisFrame ? this.burnt : this.base;
    if (shown === undefined) return;
    const block = this.screen.getPixels();
    block.data.set(shown.getPixels().data);
    // The burnt picture holds the layers already.
    if (!this.burntThisFrame) composeOver(block, this.unburnt());
    this.screen.putPixels(block);
  }

  private unburnt(): PixelBlock[] {
    const blocks: PixelBlock[] = [];
    for (const layer of this.bakes) if (!layer.burnt) blocks.push(layer.surface.getPixels());
    return blocks;
  }

  /** Layer 0, made from the screen the first time layers are used. */
  private ensureBase(): Surface | undefined {
    if (this.base !== undefined) return this.base;
    if (this.createSurface === undefined) return undefined;
    this.base = this.blank();
    copyInto(this.base, this.screen);
    return this.base;
  }

  private blank(): Surface {
    const layer = (this.createSurface as (w: number, h: number) => Surface)(
      this.screen.width,
      this.screen.height,
    );
    layer.clear(TRANSPARENT);
    return layer;
  }
}

/** A surface whose every call goes to `target()`. */
function forwardingSurface(width: number, height: number, target: () => Surface): Surface {
  return {
    width,
    height,
    clear: (paint) => target().clear(paint),
    fillRect: (x, y, w, h, paint) => target().fillRect(x, y, w, h, paint),
    point: (x, y, paint) => target().point(x, y, paint),
    line: (x0, y0, x1, y1, thickness, paint) => target().line(x0, y0, x1, y1, thickness, paint),
    ellipse: (cx, cy, rx, ry, outline, paint) => target().ellipse(cx, cy, rx, ry, outline, paint),
    polygon: (points, outline, paint) => target().polygon(points, outline, paint),
    text: (text, x, y, size, paint) => target().text(text, x, y, size, paint),
    getPixels: () => target().getPixels(),
    putPixels: (block) => target().putPixels(block),
  };
}
