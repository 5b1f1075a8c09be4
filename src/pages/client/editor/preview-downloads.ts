import { renderFrames } from '../../../domain/kidlisp/render/frames.js';
import { encodeGif } from '../../../domain/kidlisp/render/gif.js';
import { download } from './editor-page.js';

/** The animated GIF: two seconds at 30 frames a second, drawn by the runtime off screen. */
const GIF_FRAMES = 60;
const GIF_STEP_MS = 1000 / 30;

/** The preview as it shows now, as a PNG. */
export function downloadPng(canvas: HTMLCanvasElement): void {
  canvas.toBlob((blob) => {
    if (blob) download(blob, 'kidlisp.png');
  }, 'image/png');
}

/**
 * The program's first frames as an animated GIF, with the encoder the CLI's `kidlisp render
 * --gif` uses (src/domain/kidlisp/render/gif.ts); each frame is bounded by the runtime's step budget.
 */
export function downloadGif(source: string, width = 256, height = 256): void {
  const { frames } = renderFrames({
    source,
    width,
    height,
    frames: GIF_FRAMES,
    stepMs: GIF_STEP_MS,
  });
  const gif = encodeGif(
    frames.map((frame) => frame.rgba),
    width,
    height,
    GIF_STEP_MS,
  );
  download(new Blob([gif as Uint8Array<ArrayBuffer>], { type: 'image/gif' }), 'kidlisp.gif');
}
