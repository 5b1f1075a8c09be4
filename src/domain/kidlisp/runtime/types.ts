import type { SoundOutput } from './sound.js';

/** Red, green, blue, alpha, each 0..255. */
export type RGBA = readonly [number, number, number, number];

/**
 * What a shape is painted with. Every surface must draw these three kinds:
 * - `solid`: source-over blending of one color;
 * - `erase`: lowers the alpha of what is under the shape (destination-out) by `alpha`/255;
 * - `fade`: a linear gradient from (x0, y0) to (x1, y1) in screen coordinates, stops spread
 *   evenly, clamped beyond the ends (what CanvasRenderingContext2D.createLinearGradient does).
 */
export type Paint =
  | { kind: 'solid'; color: RGBA }
  | { kind: 'erase'; alpha: number }
  | {
      kind: 'fade';
      stops: readonly RGBA[];
      x0: number;
      y0: number;
      x1: number;
      y1: number;
    };

/** RGBA pixels, row by row, 4 bytes a pixel: the shape of the canvas API's ImageData. */
export interface PixelBlock {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

/** A rectangle of whole pixels: columns `x .. x + width - 1`, rows `y .. y + height - 1`. */
export interface Area {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The small drawing interface the interpreter needs. `rasterSurface` (../raster/raster-surface.ts)
 * draws it into an RGBA buffer with the runtime's own rasterizer.
 * Coordinates are pixels with (0, 0) at the top left.
 */
export interface Surface {
  readonly width: number;
  readonly height: number;
  /** Every pixel becomes the paint's color as it is, alpha included (no blending). */
  clear(paint: Paint): void;
  fillRect(x: number, y: number, width: number, height: number, paint: Paint): void;
  /** One pixel at (floor x, floor y). */
  point(x: number, y: number, paint: Paint): void;
  /** A straight line `thickness` pixels wide, both end pixels included. */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, paint: Paint): void;
  /** `outline` 0 fills the ellipse; N > 0 draws an outline N pixels wide. */
  ellipse(cx: number, cy: number, rx: number, ry: number, outline: number, paint: Paint): void;
  /** Points as x0, y0, x1, y1, ...; `outline` as for `ellipse`. */
  polygon(points: readonly number[], outline: number, paint: Paint): void;
  /** Text with its top-left corner at (x, y), `size` pixels tall, in a monospace face. */
  text(text: string, x: number, y: number, size: number, paint: Paint): void;
  /** The whole screen. The interpreter changes `data` in place and hands the same block back. */
  getPixels(): PixelBlock;
  putPixels(block: PixelBlock): void;
  /** `mask`: drawing calls (not `getPixels`/`putPixels`) touch only this area; undefined: all. */
  clip?(area: Area | undefined): void;
}

/** The moment a frame is drawn: the frame number (0 first) and milliseconds since the start. */
export interface Tick {
  frame: number;
  ms: number;
}

/**
 * A published KidLisp program's source by its code (without the `$`); null when none. It may
 * answer at once (renders that resolved their embeds before the first frame: embed-closure.ts),
 * and the embed then draws from the frame that first reaches it.
 */
export type EmbedLoader = (code: string) => Promise<string | null> | string | null;

/**
 * A published painting's pixels by its code (without the `#`); null when there is none. It may
 * answer at once (headless renders that loaded their paintings before the first frame).
 */
export type PaintingLoader = (code: string) => Promise<PixelBlock | null> | PixelBlock | null;

export interface RuntimeOptions {
  surface: Surface;
  /** Seeds `?`, `choose`, `random`, `wiggle` and random coordinates. Default 1. */
  seed?: number;
  /** Work allowed in one frame (one unit a form evaluated; pixel work costs more). Default 100,000. */
  stepLimit?: number;
  /** Deepest nesting of `later` calls. Default 128. */
  maxDepth?: number;
  /** Source of `$code` embeds; without it, embeds are listed as unsupported. */
  loadEmbed?: EmbedLoader;
  /** Makes an offscreen surface for an embedded program; without it, embeds are unsupported. */
  createSurface?: (width: number, height: number) => Surface;
  /** Pixels of `#code` paintings (`stamp`, `paste`); without it, paintings are listed as unsupported. */
  loadPainting?: PaintingLoader;
  /** How deep embeds may nest inside embeds. Default 3. */
  maxEmbedDepth?: number;
  /** The clock's time at frame 0, ms since 1970, for `(clock)`: `epochMs + tick.ms`. Default 0. */
  epochMs?: number;
  /** Paint the screen black before the first frame (top-level programs). Default true. */
  opaqueStart?: boolean;
  /** Where `melody`, `bell`, `overtone`... sound; without it they run silently (sound.ts). */
  sound?: SoundOutput;
}

/** What the page shows in its notice. Each list is deduplicated and keeps first-seen order. */
export interface RuntimeReport {
  /** Built-in words of the language this runtime does not draw yet (`melody`, `bake`, ...). */
  unsupported: string[];
  /** Words in call position that are neither built-ins, colors nor defined by the program. */
  unknown: string[];
  /** Everything else worth telling: budget stops, missing embeds, an unreadable program. */
  problems: string[];
}

export interface FrameResult {
  /** Work units the frame used. */
  steps: number;
  /** The frame was cut short (budget, nesting, or an internal failure; see the report). */
  stopped: boolean;
  /** The report gained an entry during this frame. */
  reportChanged: boolean;
}

/** A pointer event, delivered before the frame it belongs to (`tap`, `draw`, `lift`, `penx`...). */
export interface PointerInput {
  type: 'touch' | 'draw' | 'lift';
  x: number;
  y: number;
  dx?: number;
  dy?: number;
}

/** A key on the page, delivered like a pointer event (input.ts says which keys do what). */
export interface KeyInput {
  type: 'keydown' | 'keyup';
  key: string;
}
