import type { Bounds, Visit } from './geometry.js';

/**
 * A 6 x 10 bitmap font for printable ASCII (32..126), one string of ten two-digit hex rows a
 * glyph, the high bit of each row (0x20) the leftmost pixel. Drawn once from DejaVu Sans Mono at
 * 10 px and thresholded (DejaVu's license allows it); other characters draw as '?'.
 */
const GLYPHS: readonly string[] = [
  '00000000000000000000',
  '00181818181800180000',
  '00141414000000000000',
  '0007051f0d3f0b0a0000',
  '00041e171c0f171e0404',
  '001c35351f07050c0000',
  '000f190c1e37131f0000',
  '00101010000000000000',
  '00081810103010101800',
  '00101808080808181000',
  '00083e3e2a0800000000',
  '00000606061f06060000',
  '00000000000000103000',
  '00000000003800000000',
  '00000000000000100000',
  '000c0818181030202000',
  '001e13333333131e0000',
  '000c1c0c0c0c0c1e0000',
  '001e3302060c193f0000',
  '001e13020e03131e0000',
  '00060e1e363f060f0000',
  '001e101e1303131e0000',
  '000f103e3333131e0000',
  '001f130206040c080000',
  '001e13131e13331e0000',
  '001e3333131f131e0000',
  '00000000180000180000',
  '00000000180000101020',
  '000000031e1e07000000',
  '0000001f001f00000000',
  '0000101e07031e100000',
  '003e26060c0808080000',
  '00070c17343434170807',
  '00060e0a1b1f11310000',
  '003f19191f19193f0000',
  '000f18303030180f0000',
  '003f19181818193f0000',
  '003f18191f18183f0000',
  '003f18191f18183c0000',
  '000f18303130180f0000',
  '003d18181f18183d0000',
  '003c18181818183c0000',
  '003c1818181818181830',
  '003d1b1e1c1e1b3d0000',
  '003c18181818183f0000',
  '00381c1c161713380000',
  '00381c16131311380000',
  '000f18303030180f0000',
  '003f19191f18183c0000',
  '000f18303030180f0300',
  '003f19191f1b193d0000',
  '001f11181f03111f0000',
  '003f24040404040e0000',
  '003d18181818180f0000',
  '00391119190e0e060000',
  '003b131b1b0e0c0c0000',
  '003b1b0e0e0e1b3b0000',
  '003b1b1a0c0c0c0e0000',
  '003f23060c0c183f0000',
  '00181010101010101018',
  '00203010101808080800',
  '00180808080808080818',
  '00060f19000000000000',
  '00000000000000000000',
  '10180000000000000000',
  '0000001e121e321f0000',
  '0030101e1b131b3e0000',
  '0000001e3230321e0000',
  '0007031f3333331f0000',
  '0000001e333f321e0000',
  '001e103c101010380000',
  '0000001f3333331f121e',
  '0030101e1b13133b0000',
  '00100030101010380000',
  '00100030101010101030',
  '00301017141c163f0000',
  '00301010101010380000',
  '0000003f1b13133f0000',
  '0000003e1b13133b0000',
  '0000001e3333331e0000',
  '0000003e1b131b1e1038',
  '0000001f3333331f0307',
  '0000003e1a1010380000',
  '0000001e301c263e0000',
  '0010103c1010141c0000',
  '000000371313131f0000',
  '0000003f121e1c0c0000',
  '0000003a171f1d0d0000',
  '0000003e1c0c1c370000',
  '0000003f121e0c0c0838',
  '0000003e0c0c1a3e0000',
  '00060c0c0c1c0c0c0c06',
  '00101010101010101010',
  '001c0c0c0c060c0c0c18',
  '000000001e1300000000',
];

export const GLYPH_WIDTH = 6;
export const GLYPH_HEIGHT = 10;

/** Draws text with its top-left corner at (x, y), each font pixel a block size / 10 wide. */
export function drawText(
  text: string,
  x: number,
  y: number,
  size: number,
  bounds: Bounds,
  visit: Visit,
): void {
  const scale = Math.max(1, Math.round(size / GLYPH_HEIGHT));
  const left = Math.floor(x);
  const top = Math.floor(y);
  if (!Number.isFinite(left) || !Number.isFinite(top) || top >= bounds.height) return;
  let column = 0;
  for (const character of text) {
    if (left + column * GLYPH_WIDTH * scale >= bounds.width) return;
    const code = character.codePointAt(0) ?? 63;
    const glyph = GLYPHS[code >= 32 && code < 127 ? code - 32 : 31] ?? '';
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      const bits = Number.parseInt(glyph.slice(row * 2, row * 2 + 2), 16);
      for (let bit = 0; bit < GLYPH_WIDTH; bit++) {
        if ((bits & (1 << (GLYPH_WIDTH - 1 - bit))) === 0) continue;
        const px = left + (column * GLYPH_WIDTH + bit) * scale;
        const py = top + row * scale;
        // Only the part of the block on the screen is visited.
        const rows = Math.min(scale, bounds.height - py);
        const cols = Math.min(scale, bounds.width - px);
        for (let dy = Math.max(0, -py); dy < rows; dy++)
          for (let dx = Math.max(0, -px); dx < cols; dx++) visit(px + dx, py + dy);
      }
    }
    column++;
  }
}
