/**
 * An animated GIF from RGBA frames: `publish-gateway kidlisp render --gif`. Each frame gets its
 * own palette: its exact colors when it has at most 256, otherwise a 6 x 7 x 6 color cube
 * (nearest level per channel). Alpha is dropped: every pixel shows its stored RGB. Frames loop
 * forever, `delayMs` apart (GIF counts in hundredths of a second, at least 2).
 */
const CUBE = { r: 6, g: 7, b: 6 };

interface Indexed {
  palette: number[];
  indices: Uint8Array;
}

function exactPalette(rgba: Uint8ClampedArray): Indexed | undefined {
  const lookup = new Map<number, number>();
  const indices = new Uint8Array(rgba.length / 4);
  for (let p = 0; p < indices.length; p++) {
    const key =
      ((rgba[p * 4] as number) << 16) |
      ((rgba[p * 4 + 1] as number) << 8) |
      (rgba[p * 4 + 2] as number);
    let index = lookup.get(key);
    if (index === undefined) {
      if (lookup.size === 256) return undefined;
      index = lookup.size;
      lookup.set(key, index);
    }
    indices[p] = index;
  }
  return { palette: [...lookup.keys()], indices };
}

function cubePalette(rgba: Uint8ClampedArray): Indexed {
  const level = (value: number, steps: number) => Math.round((value / 255) * (steps - 1));
  const palette: number[] = [];
  for (let r = 0; r < CUBE.r; r++)
    for (let g = 0; g < CUBE.g; g++)
      for (let b = 0; b < CUBE.b; b++) {
        const channel = (v: number, steps: number) => Math.round((v * 255) / (steps - 1));
        palette.push((channel(r, CUBE.r) << 16) | (channel(g, CUBE.g) << 8) | channel(b, CUBE.b));
      }
  const indices = new Uint8Array(rgba.length / 4);
  for (let p = 0; p < indices.length; p++) {
    const r = level(rgba[p * 4] as number, CUBE.r);
    const g = level(rgba[p * 4 + 1] as number, CUBE.g);
    const b = level(rgba[p * 4 + 2] as number, CUBE.b);
    indices[p] = (r * CUBE.g + g) * CUBE.b + b;
  }
  return { palette, indices };
}

/** GIF's variable-width LZW, codes packed least significant bit first into 255-byte blocks. */
function lzw(indices: Uint8Array, minCodeSize: number): number[] {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out: number[] = [];
  let bits = 0;
  let buffer = 0;
  let size = minCodeSize + 1;
  let next = end + 1;
  // A string is its prefix's code and its last index: key = code * 256 + index.
  let table = new Map<number, number>();
  const emit = (code: number) => {
    buffer |= code << bits;
    bits += size;
    while (bits >= 8) {
      out.push(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  };
  emit(clear);
  let prefixCode = indices[0] ?? 0;
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i] as number;
    const key = prefixCode * 256 + k;
    const known = table.get(key);
    if (known !== undefined) {
      prefixCode = known;
      continue;
    }
    emit(prefixCode);
    if (next < 4096) {
      table.set(key, next++);
      if (next > 1 << size && size < 12) size++;
    } else {
      emit(clear);
      table = new Map();
      size = minCodeSize + 1;
      next = end + 1;
    }
    prefixCode = k;
  }
  emit(prefixCode);
  emit(end);
  if (bits > 0) out.push(buffer & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < out.length; i += 255) {
    const length = Math.min(255, out.length - i);
    blocks.push(length);
    for (let j = i; j < i + length; j++) blocks.push(out[j] as number);
  }
  blocks.push(0);
  return blocks;
}

/** Character codes of ASCII text (no Node Buffer: the editor's page encodes GIFs too). */
const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

export function encodeGif(
  frames: Iterable<Uint8ClampedArray>,
  width: number,
  height: number,
  delayMs: number,
): Uint8Array {
  const word = (n: number) => [n & 0xff, (n >> 8) & 0xff];
  const bytes: number[] = [...ascii('GIF89a'), ...word(width), ...word(height), 0, 0, 0];
  // Loop forever (NETSCAPE2.0 application extension).
  bytes.push(0x21, 0xff, 11, ...ascii('NETSCAPE2.0'), 3, 1, 0, 0, 0);
  const delay = Math.max(2, Math.round(delayMs / 10));
  for (const rgba of frames) {
    const { palette, indices } = exactPalette(rgba) ?? cubePalette(rgba);
    const depth = Math.max(1, Math.ceil(Math.log2(Math.max(2, palette.length))));
    bytes.push(0x21, 0xf9, 4, 0, ...word(delay), 0, 0);
    bytes.push(0x2c, 0, 0, 0, 0, ...word(width), ...word(height), 0x80 | (depth - 1));
    for (let i = 0; i < 1 << depth; i++) {
      const color = palette[i] ?? 0;
      bytes.push((color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff);
    }
    const minCodeSize = Math.max(2, depth);
    bytes.push(minCodeSize);
    for (const byte of lzw(indices, minCodeSize)) bytes.push(byte);
  }
  bytes.push(0x3b);
  return Uint8Array.from(bytes);
}
