/**
 * Chaos mode's pictures, as the newest reference draws them (its `evaluateChaos`, `hueToRgb` and
 * `drawChaosCircle`): the source's 32-bit text hash picks one of six pictures and seeds a
 * generator; each frame is drawn again from scratch with wipe, ink and filled boxes.
 */
import { boxBounds, paintBox } from './shape-modes.js';
import type { Paint, Surface } from './types.js';

/**
 * What the pictures draw with: the screen, and the interpreter's step budget. A picture's work is
 * bounded by the screen's size (at most one 4 x 4 box per 16 pixels), so a frame is charged as one
 * wipe, never cut short by its boxes, whatever the canvas's size.
 */
export interface ChaosCanvas {
  screen: Surface;
  /** The interpreter's `chargeArea`. */
  chargeArea(width: number, height: number): void;
}

const FILL = { outline: 0, inside: false, center: false };
const TWO_PI = Math.PI * 2;

/** The reference's string hash: `hash * 31 + code`, kept to a signed 32-bit integer. */
export function chaosHash(source: string): number {
  let hash = 0;
  for (let i = 0; i < source.length; i++) hash = ((hash << 5) - hash + source.charCodeAt(i)) | 0;
  return hash;
}

/** Which of the six pictures a source gets (0 rainbow static ... 5 kaleidoscope). */
export function chaosPicture(source: string): number {
  return Math.abs(chaosHash(source)) % 6;
}

/** The reference's hue (degrees) to a full-strength color; a negative hue is kept as it computes. */
function hueToRgb(hue: number): [number, number, number] {
  const h = hue / 60;
  const c = 255;
  const x = Math.floor(c * (1 - Math.abs((h % 2) - 1)));
  if (h < 1) return [c, x, 0];
  if (h < 2) return [x, c, 0];
  if (h < 3) return [0, c, x];
  if (h < 4) return [0, x, c];
  if (h < 5) return [x, 0, c];
  return [c, 0, x];
}

const channel = (value: number): number => Math.min(255, Math.max(0, Math.floor(value)));

function solid(r: number, g: number, b: number, a = 255): Paint {
  return { kind: 'solid', color: [channel(r), channel(g), channel(b), channel(a)] };
}

class Pen {
  private paint: Paint = solid(255, 255, 255);

  constructor(private readonly canvas: ChaosCanvas) {}

  wipe(r: number, g: number, b: number): void {
    const { screen } = this.canvas;
    this.canvas.chargeArea(screen.width, screen.height);
    screen.clear(solid(r, g, b));
  }

  ink(r: number, g: number, b: number, a = 255): void {
    this.paint = solid(r, g, b, a);
  }

  box(x: number, y: number, width: number, height: number): void {
    paintBox(this.canvas.screen, boxBounds(x, y, width, height, FILL), FILL, this.paint);
  }
}

/** Draws frame `frame` of the chaos picture for `source`. */
export function drawChaos(canvas: ChaosCanvas, source: string, frame: number): void {
  let seed = chaosHash(source);
  const random = (): number => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return (seed >>> 0) / 4294967296;
  };
  const picture = Math.abs(seed) % 6;
  const { width, height } = canvas.screen;
  const pen = new Pen(canvas);
  const code = (i: number): number => source.charCodeAt(i);

  if (picture === 0) {
    // Rainbow static: a 3 x 3 box a character.
    pen.wipe(0, 0, 0);
    for (let i = 0; i < source.length && i < 1000; i++) {
      const x = (i * 7 + code(i)) % width;
      const y = (Math.floor(i / (width / 7)) * 3) % height;
      pen.ink(...hueToRgb((code(i) * 37 + frame) % 360));
      pen.box(x, y, 3, 3);
    }
  } else if (picture === 1) {
    // Pulsing rings of small boxes about the middle.
    const bg = Math.floor(random() * 40);
    pen.wipe(bg, bg, bg + 20);
    const rings = Math.min(source.length / 5, 20);
    for (let i = 0; i < rings; i++) {
      const radius = (i + 1) * (Math.min(width, height) / rings / 2);
      const pulse = Math.sin((frame + i * 10) * 0.05) * 0.3 + 0.7;
      const [r, g, b] = hueToRgb((i * 30 + seed) % 360);
      pen.ink(r * pulse, g * pulse, b * pulse, 150);
      ring(pen, width / 2, height / 2, radius * pulse, 2);
    }
  } else if (picture === 2) {
    // Three waves added up, in 4 x 4 cells.
    pen.wipe(10, 10, 30);
    const step = 4;
    for (let y = 0; y < height; y += step) {
      for (let x = 0; x < width; x += step) {
        const wave1 = Math.sin((x + frame) * 0.05 + seed * 0.01);
        const wave2 = Math.cos((y - frame * 0.5) * 0.03 + source.length * 0.1);
        const wave3 = Math.sin((x + y + frame * 0.3) * 0.02);
        const intensity = (wave1 + wave2 + wave3 + 3) / 6;
        const [r, g, b] = hueToRgb((x + y + seed) % 360);
        pen.ink(r * intensity, g * intensity, b * intensity);
        pen.box(x, y, step, step);
      }
    }
  } else if (picture === 3) {
    // Two strands of the first 100 characters, joined every fifth.
    pen.wipe(20, 10, 30);
    const count = Math.min(source.length, 100);
    for (let i = 0; i < count; i++) {
      const t = (i / count) * Math.PI * 4 + frame * 0.02;
      const x1 = width / 2 + Math.sin(t) * (width / 4);
      const x2 = width / 2 - Math.sin(t) * (width / 4);
      const y = (i / count) * height;
      const depth = (Math.sin(t) + 1) / 2;
      const size = 3 + depth * 5;
      pen.ink(...hueToRgb((code(i) * 10 + frame) % 360), Math.floor(100 + depth * 155));
      pen.box(x1 - size / 2, y, size, size);
      pen.ink(...hueToRgb((code(i) * 10 + 180 + frame) % 360), Math.floor(100 + (1 - depth) * 155));
      pen.box(x2 - size / 2, y, size, size);
      if (i % 5 === 0) {
        pen.ink(100, 100, 100, 80);
        pen.box(Math.min(x1, x2), y, Math.abs(x1 - x2), 1);
      }
    }
  } else if (picture === 4) {
    // Green columns falling at one of three speeds.
    pen.wipe(0, 10, 0);
    const columns = Math.floor(width / 8);
    for (let column = 0; column < columns; column++) {
      const columnSeed = (seed + column * 97) & 0xffff;
      const speed = 1 + (columnSeed % 3);
      const offset = (frame * speed + columnSeed) % (height + 100);
      for (let i = 0; i < 15; i++) {
        const y = offset - i * 10;
        if (y < 0 || y >= height) continue;
        pen.ink(0, Math.floor(100 + (1 - i / 15) * 155), 0);
        pen.box(column * 8, y, 6, 8);
      }
    }
  } else {
    // Kaleidoscope: the first 50 characters, eight times round the middle.
    const [bgR, bgG, bgB] = hueToRgb(seed % 360);
    pen.wipe(Math.floor(bgR * 0.2), Math.floor(bgG * 0.2), Math.floor(bgB * 0.2));
    const segments = 8;
    for (let i = 0; i < Math.min(source.length, 50); i++) {
      const r = (code(i) % 100) + 20 + Math.sin(frame * 0.02 + i) * 20;
      const baseAngle = (i / 50) * TWO_PI + frame * 0.01;
      for (let segment = 0; segment < segments; segment++) {
        const angle = baseAngle + (segment / segments) * TWO_PI;
        const x = width / 2 + Math.cos(angle) * r;
        const y = height / 2 + Math.sin(angle) * r;
        pen.ink(...hueToRgb((code(i) * 7 + segment * 45 + frame) % 360), 200);
        pen.box(x - 2, y - 2, 4, 4);
      }
    }
  }
}

/** A ring of `thickness`-sized boxes (the reference's `drawChaosCircle`). */
function ring(pen: Pen, cx: number, cy: number, radius: number, thickness: number): void {
  const steps = Math.max(16, Math.floor(radius * 0.5));
  for (let i = 0; i < steps; i++) {
    const angle = (i / steps) * TWO_PI;
    pen.box(
      cx + Math.cos(angle) * radius - thickness / 2,
      cy + Math.sin(angle) * radius - thickness / 2,
      thickness,
      thickness,
    );
  }
}
