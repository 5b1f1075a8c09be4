import {
  type RasterSurface,
  rasterSurface,
} from '../../../../src/domain/kidlisp/raster/raster-surface.js';
import type {
  Area,
  PixelBlock,
  RGBA,
  Surface,
} from '../../../../src/domain/kidlisp/runtime/index.js';

/**
 * The runtime's own rasterizer (`rasterSurface`) with readers for tests and a record of every
 * drawing call.
 */
export class PixelSurface implements Surface {
  readonly calls: { method: string; args: unknown[] }[] = [];
  private readonly raster: RasterSurface;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.raster = rasterSurface(width, height);
  }

  get data(): Uint8ClampedArray {
    return this.raster.pixels;
  }

  pixel(x: number, y: number): RGBA {
    const i = (y * this.width + x) * 4;
    const d = this.raster.pixels;
    return [d[i] ?? 0, d[i + 1] ?? 0, d[i + 2] ?? 0, d[i + 3] ?? 0];
  }

  /** How many pixels have exactly this color. */
  count(color: RGBA): number {
    const d = this.raster.pixels;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (
        d[i] === color[0] &&
        d[i + 1] === color[1] &&
        d[i + 2] === color[2] &&
        d[i + 3] === color[3]
      )
        n++;
    }
    return n;
  }

  snapshot(): Uint8ClampedArray {
    return this.raster.pixels.slice();
  }

  private record<K extends keyof Surface>(method: K, args: unknown[]): void {
    this.calls.push({ method, args });
  }

  clear: Surface['clear'] = (...args) => {
    this.record('clear', args);
    this.raster.clear(...args);
  };
  fillRect: Surface['fillRect'] = (...args) => {
    this.record('fillRect', args);
    this.raster.fillRect(...args);
  };
  point: Surface['point'] = (...args) => {
    this.record('point', args);
    this.raster.point(...args);
  };
  line: Surface['line'] = (...args) => {
    this.record('line', args);
    this.raster.line(...args);
  };
  ellipse: Surface['ellipse'] = (...args) => {
    this.record('ellipse', args);
    this.raster.ellipse(...args);
  };
  polygon: Surface['polygon'] = (...args) => {
    this.record('polygon', args);
    this.raster.polygon(...args);
  };
  text: Surface['text'] = (...args) => {
    this.record('text', args);
    this.raster.text(...args);
  };
  getPixels(): PixelBlock {
    this.record('getPixels', []);
    return this.raster.getPixels();
  }
  putPixels(block: PixelBlock): void {
    this.record('putPixels', [block]);
    this.raster.putPixels(block);
  }
  clip(area: Area | undefined): void {
    this.record('clip', [area]);
    this.raster.clip?.(area);
  }
}

export const NAVY: RGBA = [0, 0, 128, 255];
export const RED: RGBA = [255, 0, 0, 255];
export const BLACK: RGBA = [0, 0, 0, 255];
export const WHITE: RGBA = [255, 255, 255, 255];
