import { describe, expect, it, vi } from 'vitest';
import type { PixelBlock, RuntimeOptions } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from '../runtime/helpers.js';
import { BLACK, NAVY, PixelSurface, RED, WHITE } from '../runtime/pixel-surface.js';

const layered = (extra: Partial<RuntimeOptions> = {}) => ({
  size: 16,
  createSurface: (width: number, height: number) => new PixelSurface(width, height),
  ...extra,
});

/** A painting `size` pixels square of one color. */
const solid = (size: number, color: readonly number[]): PixelBlock => {
  const data = new Uint8ClampedArray(size * size * 4);
  for (let i = 0; i < data.length; i += 4) data.set(color, i);
  return { width: size, height: size, data };
};
const GREEN2 = solid(2, [0, 255, 0, 255]);
const paintings = (codes: Record<string, PixelBlock>) => ({
  loadPainting: (code: string) => codes[code] ?? null,
});

describe('bake', () => {
  it('moves drawing to a layer over what was drawn before it', () => {
    const { surface, runtime } = run('(wipe navy) (bake) (ink red) (box 0 0 4 4)', layered());
    expect(surface.pixel(1, 1)).toEqual(RED);
    expect(surface.pixel(10, 10)).toEqual(NAVY);
    expect(runtime.report()).toEqual({ unsupported: [], unknown: [], problems: [] });
  });

  it('keeps layer 0 under the layer: a wipe after bake covers it, an erase does not reach it', () => {
    expect(run('(wipe navy) (bake) (wipe red)', layered()).surface.pixel(5, 5)).toEqual(RED);
    const erased = run('(wipe navy) (bake) (ink erase) (box 0 0 16 16)', layered()).surface;
    expect(erased.pixel(5, 5)).toEqual(NAVY);
  });

  it('keeps a layer across frames, where its pixels accumulate', () => {
    const once = run('(wipe black) (bake) (ink white 128) (box 0 0 4 4)', layered()).surface;
    const thrice = run('(wipe black) (bake) (ink white 128) (box 0 0 4 4)', {
      ...layered(),
      frames: 3,
    }).surface;
    expect(thrice.pixel(1, 1)[0]).toBeGreaterThan(once.pixel(1, 1)[0]);
  });

  it('still shows a layer on frames whose bake is not reached', () => {
    const { surface } = run('(wipe navy) (once (bake) (ink red) (box 0 0 4 4))', {
      ...layered(),
      frames: 3,
    });
    expect(surface.pixel(1, 1)).toEqual(RED);
    expect(surface.pixel(10, 10)).toEqual(NAVY);
  });

  it('stacks layers in the order of the bakes', () => {
    const { surface } = run(
      '(wipe black) (bake) (ink red) (box 0 0 8 8) (bake) (ink white) (box 4 4 8 8)',
      layered(),
    );
    expect(surface.pixel(2, 2)).toEqual(RED);
    expect(surface.pixel(6, 6)).toEqual(WHITE);
    expect(surface.pixel(14, 14)).toEqual(BLACK);
  });

  it('transforms only the layer it is on: a scroll after bake leaves layer 0 still', () => {
    const { surface } = run(
      '(once (wipe black) (ink white) (box 0 0 2 2)) (bake) (once (ink red) (box 0 8 2 2)) (scroll 1)',
      { ...layered(), frames: 3 },
    );
    expect(surface.pixel(0, 0)).toEqual(WHITE);
    expect(surface.pixel(3, 8)).toEqual(RED);
    expect(surface.pixel(0, 8)).toEqual(BLACK);
  });

  it('is named in the notice where no layer can be made, and the program goes on', () => {
    const { surface, runtime } = run('(wipe navy) (bake) (ink red) (box 0 0 4 4)', { size: 16 });
    expect(runtime.report().unsupported).toEqual(['bake (layers are not available here)']);
    expect(surface.pixel(1, 1)).toEqual(RED);
  });
});

describe('burn', () => {
  it('draws layer 0 and the layers into one picture that the words after it change', () => {
    const { surface } = run(
      '(wipe black) (bake) (ink red) (box 0 0 4 4) (burn) (invert)',
      layered(),
    );
    expect(surface.pixel(1, 1)).toEqual([0, 255, 255, 255]);
    expect(surface.pixel(10, 10)).toEqual(WHITE);
  });

  it('lasts one frame: what is drawn after it does not pile up, the layers under it are kept', () => {
    const source = '(once (wipe black)) (burn) (ink white 64) (box 0 0 4 4)';
    const first = run(source, layered()).surface.pixel(1, 1);
    const later = run(source, { ...layered(), frames: 4 }).surface.pixel(1, 1);
    expect(later).toEqual(first);
    const piling = run('(once (wipe black)) (ink white 64) (box 0 0 4 4)', { size: 16, frames: 4 });
    expect(piling.surface.pixel(1, 1)[0]).toBeGreaterThan(first[0]);
  });
});

describe('#code paintings', () => {
  it('stamp centers the painting on (x, y), paste puts its corner there, scale grows it', () => {
    const at = (source: string) =>
      run(`(wipe black) ${source}`, { size: 16, ...paintings({ g: GREEN2 }) }).surface;
    const stamped = at('(stamp #g 5 5)');
    expect([stamped.pixel(4, 4), stamped.pixel(5, 5), stamped.pixel(6, 6)]).toEqual([
      [0, 255, 0, 255],
      [0, 255, 0, 255],
      BLACK,
    ]);
    const pasted = at('(paste #g 5 5)');
    expect([pasted.pixel(4, 4), pasted.pixel(5, 5), pasted.pixel(6, 6)]).toEqual([
      BLACK,
      [0, 255, 0, 255],
      [0, 255, 0, 255],
    ]);
    expect(at('(paste #g 0 0 3)').count([0, 255, 0, 255])).toBe(36);
    expect(at('(painting #g 0 0)').count([0, 255, 0, 255])).toBe(4);
  });

  it('a bare #code stamps at the center; (#code x y) stamps at (x, y)', () => {
    const bare = run('(wipe black)\n#g', { size: 16, ...paintings({ g: GREEN2 }) }).surface;
    expect(bare.pixel(7, 7)).toEqual([0, 255, 0, 255]);
    expect(bare.count([0, 255, 0, 255])).toBe(4);
    const placed = run('(wipe black) (#g 2 2)', { size: 16, ...paintings({ g: GREEN2 }) }).surface;
    expect(placed.pixel(1, 1)).toEqual([0, 255, 0, 255]);
  });

  it('a painting that does not exist is named in the notice and the program goes on', () => {
    const { surface, runtime } = run('(wipe navy) (stamp #nope 4 4) (ink red) (box 0 0 2 2)', {
      size: 16,
      ...paintings({}),
    });
    expect(runtime.report().problems).toEqual([
      '#nope: no painting is published under this code; it is not drawn',
    ]);
    expect(surface.pixel(0, 0)).toEqual(RED);
    expect(surface.pixel(4, 4)).toEqual(NAVY);
  });

  it('draws nothing until a painting has loaded, asks for each code once, and idle() waits', async () => {
    let deliver: (block: PixelBlock) => void = () => {};
    const loadPainting = vi.fn(
      () =>
        new Promise<PixelBlock>((resolve) => {
          deliver = resolve;
        }),
    );
    const surface = new PixelSurface(16, 16);
    const { createKidlispRuntime } = await import(
      '../../../../src/domain/kidlisp/runtime/index.js'
    );
    const runtime = createKidlispRuntime('(wipe black) (stamp #g 8 8) (paste #g 0 0)', {
      surface,
      loadPainting,
    });
    runtime.frame({ frame: 0, ms: 0 });
    expect(surface.count([0, 255, 0, 255])).toBe(0);
    deliver(GREEN2);
    await runtime.idle();
    runtime.frame({ frame: 1, ms: 16 });
    expect(surface.count([0, 255, 0, 255])).toBe(8);
    expect(loadPainting).toHaveBeenCalledTimes(1);
    expect(loadPainting).toHaveBeenCalledWith('g');
  });

  it('a loader that fails is named in the notice; pictures that are not #codes are named too', () => {
    const failing = run('(stamp #g)', {
      size: 16,
      loadPainting: () => {
        throw new Error('disk gone');
      },
    });
    expect(failing.runtime.report().problems).toEqual([
      '#g could not be loaded (Error: disk gone); it is not drawn',
    ]);
    const url = run('(paste https://example.com/a.png 0 0)', { size: 16, ...paintings({}) });
    expect(url.runtime.report().unsupported).toEqual([
      'paste (only #code paintings are drawn here)',
    ]);
  });

  it('a loader answer that is not pixels counts as no painting', () => {
    const bad = { width: 2, height: 2, data: new Uint8ClampedArray(3) };
    const { runtime } = run('(stamp #g)', { size: 16, loadPainting: () => bad });
    expect(runtime.report().problems).toEqual([
      '#g: no painting is published under this code; it is not drawn',
    ]);
  });
});

describe('layers with the pixel words', () => {
  it('clips drawing on a bake layer to the mask, as on the screen', () => {
    const { surface } = run('(wipe navy) (mask 0 0 8 8) (bake) (wipe red)', layered());
    expect(surface.pixel(2, 2)).toEqual(RED);
    expect(surface.pixel(12, 12)).toEqual(NAVY);
  });

  it('keeps the mask when a new frame starts on layer 0', () => {
    const { surface } = run('(bake) (mask 0 0 8 8) (wipe red)', { ...layered(), frames: 2 });
    expect(surface.pixel(2, 2)).toEqual(RED);
    expect(surface.pixel(12, 12)).toEqual(BLACK);
  });

  it('names a bake after resolution in the notice and draws the rest', () => {
    const { surface, runtime } = run('(resolution 8) (bake) (wipe red)', layered());
    expect(runtime.report().unsupported).toEqual(['bake (not after resolution here)']);
    expect(surface.pixel(12, 12)).toEqual(RED);
  });
});
