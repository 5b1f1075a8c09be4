import { describe, expect, it, vi } from 'vitest';
import { createKidlispRuntime } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from './helpers.js';
import { BLACK, NAVY, PixelSurface, RED } from './pixel-surface.js';

const BLUE = [0, 0, 255, 255];

describe('pixel transforms', () => {
  it('scroll moves the picture and wraps it around the edges', () => {
    const moved = run('(once (ink red) (box 0 0 1 1)) (scroll 1 2)').surface;
    expect(moved.pixel(1, 2)).toEqual(RED);
    expect(moved.pixel(0, 0)).toEqual(BLACK);
    const wrapped = run('(once (ink red) (box 0 0 1 1)) (scroll -1 0)').surface;
    expect(wrapped.pixel(63, 0)).toEqual(RED);
  });

  it('scroll carries fractions over to later frames', () => {
    const { surface } = run('(once (ink red) (box 0 0 1 1)) (scroll 0.5)', { frames: 2 });
    expect(surface.pixel(1, 0)).toEqual(RED);
    expect(surface.count(RED)).toBe(1);
  });

  it('zoom scales about the center', () => {
    const { surface } = run('(once (ink red) (box 30 30 4 4)) (zoom 2)');
    expect(surface.count(RED)).toBe(64);
    expect(surface.pixel(28, 28)).toEqual(RED);
    expect(surface.pixel(35, 35)).toEqual(RED);
    expect(surface.pixel(36, 36)).toEqual(BLACK);
  });

  it('spin turns the picture clockwise by degrees about the center', () => {
    const { surface } = run('(once (ink red) (box 40 30 4 4)) (spin 90)');
    expect(surface.pixel(31, 41)).toEqual(RED);
    expect(surface.pixel(41, 31)).toEqual(BLACK);
    expect(surface.count(RED)).toBe(16);
  });

  it('blur softens an edge', () => {
    const { surface } = run('(wipe black) (ink white) (box 32 0 32 64) (blur 2)');
    const [edge] = surface.pixel(31, 10);
    expect(edge).toBeGreaterThan(0);
    expect(edge).toBeLessThan(255);
    expect(surface.pixel(10, 10)).toEqual(BLACK);
    expect(surface.pixel(50, 10)).toEqual([255, 255, 255, 255]);
  });

  it('consecutive transforms read and write the screen once; drawing in between splits them', () => {
    const calls = (source: string) => {
      const { surface } = run(source);
      return surface.calls.filter((call) => call.method.endsWith('Pixels')).map((c) => c.method);
    };
    expect(calls('(wipe red) (spin 1) (zoom 1.1) (blur 1)')).toEqual(['getPixels', 'putPixels']);
    expect(calls('(scroll 1) (box 0 0 1 1) (scroll 1)')).toEqual([
      'getPixels',
      'putPixels',
      'getPixels',
      'putPixels',
    ]);
    const { surface } = run(
      '(once (ink red) (box 0 0 1 1)) (scroll 1) (ink blue) (box 0 0 1 1) (scroll 1)',
    );
    expect(surface.pixel(2, 0)).toEqual(RED);
    expect(surface.pixel(1, 0)).toEqual(BLUE);
  });

  it('invert and contrast change every pixel', () => {
    expect(run('(wipe 100) (invert)').surface.pixel(5, 5)).toEqual([155, 155, 155, 255]);
    expect(run('(wipe 150) (contrast 2)').surface.pixel(5, 5)).toEqual([172, 172, 172, 255]);
  });
});

describe('$code embeds', () => {
  const options = (sources: Record<string, string>) => {
    const loadEmbed = vi.fn(async (code: string) => sources[code] ?? null);
    return {
      loadEmbed,
      createSurface: (width: number, height: number) => new PixelSurface(width, height),
    };
  };

  it('draws the embedded program in its rectangle once its source has loaded', async () => {
    const embed = options({ abc: '(wipe red)' });
    const surface = new PixelSurface(64, 64);
    const runtime = createKidlispRuntime('(wipe navy) ($abc 0 0 32 32)', { surface, ...embed });
    runtime.frame({ frame: 0, ms: 0 });
    expect(surface.pixel(10, 10)).toEqual(NAVY);
    await runtime.idle();
    runtime.frame({ frame: 1, ms: 16 });
    expect(surface.pixel(10, 10)).toEqual(RED);
    expect(surface.pixel(40, 40)).toEqual(NAVY);
    expect(embed.loadEmbed).toHaveBeenCalledExactlyOnceWith('abc');
  });

  it('blends with the alpha argument and runs the embed frame by frame', async () => {
    const embed = options({ r2f: '(wipe (... red blue))' });
    const surface = new PixelSurface(16, 16);
    const runtime = createKidlispRuntime('(wipe black) ($r2f 0 0 w h 128)', { surface, ...embed });
    runtime.frame({ frame: 0, ms: 0 });
    await runtime.idle();
    runtime.frame({ frame: 1, ms: 16 });
    expect(surface.pixel(3, 3)).toEqual([128, 0, 0, 255]);
    runtime.frame({ frame: 2, ms: 32 });
    expect(surface.pixel(3, 3)).toEqual([0, 0, 128, 255]);
  });

  it('a bare $code fills the screen, and embed takes the same arguments', async () => {
    for (const source of ['$abc', '(embed $abc 0 0 w h)']) {
      const surface = new PixelSurface(16, 16);
      const runtime = createKidlispRuntime(source, { surface, ...options({ abc: 'blue' }) });
      runtime.frame({ frame: 0, ms: 0 });
      await runtime.idle();
      runtime.frame({ frame: 1, ms: 16 });
      expect(surface.pixel(15, 15)).toEqual(BLUE);
    }
  });

  it('says when an embed does not exist, embeds itself, or cannot be loaded here', async () => {
    const surface = new PixelSurface(16, 16);
    const missing = createKidlispRuntime('($nope)', { surface, ...options({}) });
    missing.frame({ frame: 0, ms: 0 });
    await missing.idle();
    missing.frame({ frame: 1, ms: 16 });
    expect(missing.report().problems).toEqual(['$nope was not found; that embed is not drawn']);

    const loop = createKidlispRuntime('(wipe red) ($aaa)', {
      surface,
      ...options({ aaa: '($bbb)', bbb: '($aaa)' }),
    });
    for (let frame = 0; frame < 4; frame++) {
      loop.frame({ frame, ms: frame * 16 });
      await loop.idle();
    }
    expect(loop.report().problems).toContain(
      'In $aaa: In $bbb: $aaa embeds itself (through its embeds); that embed is not drawn',
    );

    const alone = run('(wipe red) ($abc 0 0 8 8)');
    expect(alone.runtime.report().unsupported).toEqual(['$abc (embeds are not available here)']);
    expect(alone.surface.pixel(2, 2)).toEqual(RED);
  });
});

describe('what the runtime does not draw', () => {
  it('names unsupported built-ins and draws the rest', () => {
    const { surface, runtime } = run('(wipe navy) (cube) (jump) (ink red) (box 0 0 4 4)');
    expect(runtime.report().unsupported).toEqual(['cube', 'jump']);
    expect(surface.pixel(1, 1)).toEqual(RED);
    expect(surface.pixel(10, 10)).toEqual(NAVY);
  });

  it('names paintings where no painting can be loaded, written as a head or on their own', () => {
    expect(run('(wipe navy)\n#dml\n(#abc 0 0)').runtime.report().unsupported).toEqual([
      '#dml (paintings are not available here)',
      '#abc (paintings are not available here)',
    ]);
  });

  it('names unknown words, with a hint for names people expect', () => {
    const { runtime } = run('(wipe navy) (scrl 5) (box (sqrt 4) 0 1 1)');
    expect(runtime.report().unknown).toEqual(['scrl', 'sqrt (there is no sqrt)']);
  });

  it('names values it cannot know (sound, pointer) and reads them as 0', () => {
    const { surface, runtime } = run('(ink red) (box beat 0 1 1)');
    expect(runtime.report().unsupported).toEqual(['beat']);
    expect(surface.pixel(0, 0)).toEqual(RED);
  });

  it('draws a one-line program without parens or commas in chaos mode, naming nothing', () => {
    const chaos = run('wipe blue');
    expect(chaos.runtime.report()).toEqual({ unsupported: [], unknown: [], problems: [] });
    expect(chaos.surface.count([0, 0, 255, 255])).toBe(0);
    expect(run('blue').runtime.report().unsupported).toEqual([]);
  });

  it('says nothing about an empty program (no words, so no chaos mode)', () => {
    for (const source of ['', ' ', '\n', '; only a comment']) {
      expect(run(source).runtime.report(), JSON.stringify(source)).toEqual({
        unsupported: [],
        unknown: [],
        problems: [],
      });
    }
  });

  it('does not run a program with an extra ), as the reference runtime discards it', () => {
    const { surface, runtime } = run('(wipe red))');
    expect(surface.count(RED)).toBe(0);
    expect(runtime.report().problems).toEqual([
      "Unmatched ')' at line 1, column 11: the program was not run (the reference runtime discards such a program too)",
    ]);
  });
});

describe('budget', () => {
  it('cuts a runaway frame short, reports it once, and keeps running later frames', () => {
    const surface = new PixelSurface(16, 16);
    const runtime = createKidlispRuntime(
      '(wipe (... red blue)) (repeat 10000 (repeat 10000 (point)))',
      { surface, stepLimit: 20_000 },
    );
    const first = runtime.frame({ frame: 0, ms: 0 });
    expect(first.stopped).toBe(true);
    expect(first.steps).toBeGreaterThan(20_000);
    expect(surface.pixel(0, 0)[0]).toBeGreaterThan(0);
    const second = runtime.frame({ frame: 1, ms: 16 });
    expect(second.stopped).toBe(true);
    expect(runtime.report().problems).toEqual([
      'A frame needed more than 20,000 steps and was cut short (the rest of the program did not draw that frame)',
    ]);
  });

  it('stops endless recursion through later', () => {
    const { runtime } = run('(later loop x (loop x)) (loop 1)');
    expect(runtime.report().problems).toEqual([
      'Functions called each other more than 128 deep; the frame was cut short',
    ]);
  });

  it('reports the fps a program asks for', () => {
    expect(run('(fps 24) (wipe red)').runtime.fps).toBe(24);
    expect(run('(wipe red)').runtime.fps).toBe(60);
  });
});
