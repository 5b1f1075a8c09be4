import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The browser player against a minimal stand-in for the DOM (elements with dataset, text and
 * children; requestAnimationFrame driven by hand) and real 2D contexts from @napi-rs/canvas.
 */
class FakeElement {
  dataset: Record<string, string> = {};
  textContent = '';
  hidden = true;
  children: FakeElement[] = [];
  id = '';
  width = 0;
  height = 0;
  style: Record<string, string> = {};
  addEventListener(): void {}
  removeEventListener(): void {}
  private context: SKRSContext2D | undefined;

  replaceChildren(...nodes: FakeElement[]): void {
    this.children = nodes;
  }

  getContext(): SKRSContext2D {
    this.context ??= createCanvas(this.width, this.height).getContext('2d');
    return this.context;
  }

  pixel(x: number, y: number): number[] {
    return [...this.getContext().getImageData(x, y, 1, 1).data];
  }
}

let elements: FakeElement[] = [];
let frameCallbacks = new Map<number, (now: number) => void>();
let nextHandle = 1;

const fakeDocument = {
  readyState: 'complete',
  getElementById: (id: string) => elements.find((element) => element.id === id) ?? null,
  querySelector: (selector: string) => {
    const match = /^\[data-kidlisp-notice(?:="(.*)")?\]$/.exec(selector);
    if (match === null) return null;
    return (
      elements.find(
        (element) =>
          element.dataset.kidlispNotice !== undefined &&
          (match[1] === undefined || element.dataset.kidlispNotice === match[1]),
      ) ?? null
    );
  },
  querySelectorAll: () => [],
  createElement: () => new FakeElement(),
  addEventListener: () => {},
};

/** Runs the pending animation frame callbacks at `now` milliseconds. */
function animate(now: number): void {
  const callbacks = [...frameCallbacks.values()];
  frameCallbacks = new Map();
  for (const callback of callbacks) callback(now);
}

function page(source: string | undefined, width = 32, height = 32) {
  const canvas = new FakeElement();
  canvas.dataset.kidlisp = 'program';
  canvas.dataset.kidlispSeed = '1';
  canvas.width = width;
  canvas.height = height;
  const holder = new FakeElement();
  holder.id = 'program';
  holder.textContent = source === undefined ? 'not json' : JSON.stringify({ source });
  const notice = new FakeElement();
  notice.dataset.kidlispNotice = 'program';
  elements = [canvas, holder, notice];
  return { canvas, notice, text: () => notice.children.map((child) => child.textContent) };
}

let playKidlisp: (canvas: HTMLCanvasElement) => () => void;

beforeAll(async () => {
  vi.stubGlobal('document', fakeDocument);
  vi.stubGlobal('CSS', { escape: (value: string) => value });
  vi.stubGlobal('requestAnimationFrame', (callback: (now: number) => void) => {
    const handle = nextHandle++;
    frameCallbacks.set(handle, callback);
    return handle;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => frameCallbacks.delete(handle));
  ({ playKidlisp } = await import('../../../../src/pages/client/kidlisp-player.js'));
});

afterAll(() => {
  vi.unstubAllGlobals();
});

beforeEach(() => {
  frameCallbacks = new Map();
});

const play = (canvas: FakeElement) => playKidlisp(canvas as unknown as HTMLCanvasElement);

describe('kidlisp-player', () => {
  it('plays the program from the JSON holder on the canvas and keeps the notice hidden', () => {
    const { canvas, notice } = page('(wipe navy)');
    play(canvas);
    animate(0);
    expect(canvas.pixel(5, 5)).toEqual([0, 0, 128, 255]);
    expect(notice.hidden).toBe(true);
  });

  it('shows unsupported forms in the notice', () => {
    const { canvas, notice, text } = page('(wipe navy) (cube)');
    play(canvas);
    animate(0);
    expect(notice.hidden).toBe(false);
    expect(text()).toEqual(['Not drawn yet by this viewer: cube']);
  });

  it('changes the picture between two animation frames of a timing program', () => {
    const { canvas } = page('(1s (wipe (... red blue)))');
    play(canvas);
    animate(0);
    expect(canvas.pixel(0, 0)).toEqual([255, 0, 0, 255]);
    animate(1000);
    expect(canvas.pixel(0, 0)).toEqual([0, 0, 255, 255]);
  });

  it('draws only as often as (fps n) asks, and stops when told', () => {
    const { canvas } = page('(fps 10) (ink red) (box frame 0 1 1)');
    const stop = play(canvas);
    for (let now = 0; now < 120; now += 1000 / 60) animate(now);
    expect(canvas.pixel(0, 0)).toEqual([255, 0, 0, 255]);
    expect(canvas.pixel(1, 0)).toEqual([255, 0, 0, 255]);
    expect(canvas.pixel(2, 0)).toEqual([0, 0, 0, 255]);
    stop();
    expect(frameCallbacks.size).toBe(0);
  });

  it('says so when the data holder does not hold a program', () => {
    const { canvas, text, notice } = page(undefined);
    play(canvas);
    expect(notice.hidden).toBe(false);
    expect(text()).toEqual([
      'No KidLisp program found in #program (expected JSON {"source": "..."})',
    ]);
  });

  it('fetches $code embeds from the read side and draws them', async () => {
    const fetch = vi.fn(
      async (_url: string) =>
        new Response(JSON.stringify({ source: '(wipe lime)' }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const { canvas } = page('(wipe navy) ($abc 0 0 16 16)');
    play(canvas);
    animate(0);
    let now = 0;
    await vi.waitFor(() => {
      now += 20;
      animate(now);
      expect(canvas.pixel(4, 4)).toEqual([0, 255, 0, 255]);
    });
    expect(canvas.pixel(20, 20)).toEqual([0, 0, 128, 255]);
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/store-kidlisp?code=abc');
  });
});
