import type { PixelBlock } from '../runtime/types.js';
import { blendPixel, type Ink } from './pixels.js';

/** Where a picture is placed: its top-left corner (`paste`) or its center (`stamp`). */
export type Anchor = 'corner' | 'center';

export interface Placement {
  x: number;
  y: number;
  /** 1 draws the picture at its own size; a negative scale mirrors it. */
  scale: number;
  /** Degrees, clockwise on screen, about the picture's center. */
  degrees: number;
  anchor: Anchor;
}

/**
 * Draws `picture` onto `target` at `place`, each screen pixel taking the picture's nearest pixel
 * (no smoothing, like the rest of this rasterizer), blended as a point is (`blendPixel`). Only
 * the screen pixels the placed picture can cover are visited, so the cost is bounded by the
 * screen whatever the scale.
 */
export function drawPicture(target: PixelBlock, picture: PixelBlock, place: Placement): void {
  const { scale } = place;
  if (!Number.isFinite(scale) || scale === 0 || !Number.isFinite(place.x + place.y)) return;
  const radians = ((Number.isFinite(place.degrees) ? place.degrees : 0) * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const halfW = (picture.width * Math.abs(scale)) / 2;
  const halfH = (picture.height * Math.abs(scale)) / 2;
  const cx = place.anchor === 'center' ? place.x : place.x + halfW;
  const cy = place.anchor === 'center' ? place.y : place.y + halfH;
  // The rotated picture's bounds on screen, clipped to the screen.
  const reachX = Math.abs(halfW * cos) + Math.abs(halfH * sin);
  const reachY = Math.abs(halfW * sin) + Math.abs(halfH * cos);
  const left = Math.max(0, Math.floor(cx - reachX));
  const right = Math.min(target.width, Math.ceil(cx + reachX));
  const top = Math.max(0, Math.floor(cy - reachY));
  const bottom = Math.min(target.height, Math.ceil(cy + reachY));
  if (right <= left || bottom <= top) return;
  const source = picture.data;
  const sourceWidth = picture.width;
  const sourceHeight = picture.height;
  const data = target.data;
  const targetWidth = target.width;
  const ink: Ink = { r: 0, g: 0, b: 0, a: 0, erase: false };
  for (let y = top; y < bottom; y++) {
    const dy = y + 0.5 - cy;
    for (let x = left; x < right; x++) {
      const dx = x + 0.5 - cx;
      // Undo the rotation and the scale: where this screen pixel falls in the picture.
      const u = Math.floor((dx * cos + dy * sin) / scale + sourceWidth / 2);
      const v = Math.floor((-dx * sin + dy * cos) / scale + sourceHeight / 2);
      if (u < 0 || u >= sourceWidth || v < 0 || v >= sourceHeight) continue;
      const s = (v * sourceWidth + u) * 4;
      const alpha = source[s + 3] as number;
      if (alpha === 0) continue;
      ink.r = source[s] as number;
      ink.g = source[s + 1] as number;
      ink.b = source[s + 2] as number;
      ink.a = alpha;
      blendPixel(data, (y * targetWidth + x) * 4, ink);
    }
  }
}
