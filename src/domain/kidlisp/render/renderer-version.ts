import { createHash } from 'node:crypto';
import { renderFrames } from './frames.js';

/**
 * Programs whose pixels stand for the runtime's: between them they draw shapes, text, a fade,
 * the whole-screen transforms and effects, layers and an embed. A change to the runtime that
 * changes a picture changes some of these pixels too, and so the version below.
 */
const PROBES = [
  'fade:red-blue-black\n(ink yellow 128) (box 4 4 20 12) (circle 16 16 6) (line 0 0 w h)',
  '(wipe navy) (ink white) (write "Aa1" 2 2) (repeat 20 (point ? ?)) (scroll 3 1)',
  '(wipe 20 40 60) (ink rainbow) (line 0 h/2 w h/2) (blur 1) (spin 2) (zoom 1.1) (contrast 1.2)',
  'white, ink black 64, box ? ? 8, bake, ink red, line, (sharpen 1.05) (suck 1) (shear 0.1 0.2)',
  '(wipe black) ($aaa 0 0 w/2 h)',
];
const PROBE_EMBEDS = { aaa: '(wipe lime) (ink red) (box 2 2 6 6)' };

let version: string | undefined;

/**
 * The version stored thumbnails are kept under (thumbnail-store.ts): a hash of the probes' pixels,
 * computed once per process (a few milliseconds), so pictures drawn by another runtime are drawn
 * anew without anyone having to remember to bump a number.
 */
export function rendererVersion(): string {
  if (version === undefined) {
    const hash = createHash('sha256');
    for (const source of PROBES) {
      const { frames } = renderFrames({
        source,
        width: 24,
        height: 24,
        frames: 3,
        seed: 7,
        embeds: PROBE_EMBEDS,
      });
      for (const frame of frames) hash.update(frame.rgba);
    }
    version = hash.digest('base64url').slice(0, 16);
  }
  return version;
}
