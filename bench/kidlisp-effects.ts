/**
 * Time of each whole-screen effect (`shear`, `sharpen`, `suck`, `sort`, `flip`, `noise`) on a
 * 256x256 picture of many colors (a fade, circles and a blur) and on one of flat shapes, both
 * drawn by the runtime, each call on a fresh copy of the picture (the copy is not timed). On a
 * shared machine the least time (min) is the steadiest figure of what a call itself costs.
 *
 *   npx tsx bench/kidlisp-effects.ts [calls]      (default 300 calls after 30 warm-up calls)
 */
import { loadavg } from 'node:os';
import { flipPixels } from '../src/domain/kidlisp/runtime/flip.js';
import { createKidlispRuntime, rasterSurface } from '../src/domain/kidlisp/runtime/index.js';
import { NoiseRandom, noisePixels } from '../src/domain/kidlisp/runtime/noise.js';
import { sharpenPixels } from '../src/domain/kidlisp/runtime/sharpen.js';
import { shearPixels } from '../src/domain/kidlisp/runtime/shear.js';
import { sortPixels } from '../src/domain/kidlisp/runtime/sort-pixels.js';
import { suckPixels } from '../src/domain/kidlisp/runtime/suck.js';
import type { PixelBlock } from '../src/domain/kidlisp/runtime/types.js';

const SIZE = 256;
const WARM_UP = 30;
const CALLS = Math.max(10, Number(process.argv[2]) || 300);

/** Pictures drawn by the runtime: one of many colors (a blur), one of flat shapes. */
const PICTURES: Record<string, string> = {
  'many colors': 'fade:red-yellow-blue:frame\n(repeat 40 (ink ? ? ? 180) (circle ? ? 30)) (blur 3)',
  'flat shapes': '(wipe navy) (repeat 30 (ink ? ? ?) (box ? ? 40 30) (circle ? ? 12))',
};

function picture(source: string): Uint8ClampedArray {
  const surface = rasterSurface(SIZE, SIZE);
  const runtime = createKidlispRuntime(source, { surface, seed: 3 });
  runtime.frame({ frame: 0, ms: 0 });
  return new Uint8ClampedArray(surface.pixels);
}

const random = new NoiseRandom(1);
const effects: [string, (block: PixelBlock) => void][] = [
  ['shear 0.1 0.05', (block) => shearPixels(block, 0.1, 0.05)],
  ['shear 0.2 (rows only)', (block) => shearPixels(block, 0.2, 0)],
  ['sharpen 1', (block) => sharpenPixels(block, 1)],
  ['suck 1', (block) => suckPixels(block, 1, SIZE / 2, SIZE / 2)],
  ['sort', sortPixels],
  ['flip', flipPixels],
  ['noise', (block) => noisePixels(block, 'plain', random)],
  ['noise sotce', (block) => noisePixels(block, 'sotce', random)],
];

const block = { width: SIZE, height: SIZE, data: new Uint8ClampedArray(SIZE * SIZE * 4) };
console.log(`${CALLS} calls each at ${SIZE}x${SIZE}, load average ${loadavg()[0]?.toFixed(1)}`);
console.log('| picture | effect | cpu ms | min ms | mean ms | p50 ms | p95 ms | max ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [kind, source] of Object.entries(PICTURES)) {
  const original = picture(source);
  for (const [name, apply] of effects) {
    const times: number[] = [];
    let cpu = 0;
    for (let call = 0; call < WARM_UP + CALLS; call++) {
      block.data.set(original);
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      apply(block);
      const elapsed = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      if (call < WARM_UP) continue;
      times.push(elapsed);
      cpu += (used.user + used.system) / 1000;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
    const cells = [cpu / CALLS, at(0), mean, at(0.5), at(0.95), at(1)].map((v) => v.toFixed(3));
    console.log(`| ${kind} | ${name} | ${cells.join(' | ')} |`);
  }
}
