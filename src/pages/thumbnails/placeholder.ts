import { createCanvas } from '@napi-rs/canvas';

let drawn: { size: number; png: Buffer } | undefined;

/**
 * What an `<img>` shows while a thumbnail is not ready (or cannot be drawn): a grey square with
 * three dots, drawn once per process. Sent instead of an error body, so no image is broken.
 */
export function placeholderPng(size: number): Buffer {
  if (drawn?.size === size) return drawn.png;
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = '#2b2b33';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#8a8a99';
  for (const step of [-1, 0, 1]) {
    context.beginPath();
    context.arc(size / 2 + step * (size / 8), size / 2, size / 32, 0, Math.PI * 2);
    context.fill();
  }
  drawn = { size, png: canvas.toBuffer('image/png') };
  return drawn.png;
}
