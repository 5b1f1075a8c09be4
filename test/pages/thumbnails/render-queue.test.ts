import { describe, expect, it } from 'vitest';
import {
  createRenderQueue,
  type RenderQueueOptions,
} from '../../../src/pages/thumbnails/render-queue.js';

/** A render that ends when the test says so, recording when it started. */
function held(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const queueWith = (options: Partial<RenderQueueOptions>) =>
  createRenderQueue({
    concurrency: 4,
    perClient: 2,
    clientWaitMs: 1_000,
    queueWaitMs: 1_000,
    ...options,
  });

describe('the render queue', () => {
  it('admits two tool renders of one client; the third waits for one of them, then runs', async () => {
    const queue = queueWith({});
    const log: string[] = [];
    const [a, b, c] = [held(log, 'a'), held(log, 'b'), held(log, 'c')];
    const runs = [a, b, c].map((render) => queue.run({ kind: 'tool', client: 'one' }, render.work));
    await tick();
    expect(log).toEqual(['a', 'b']);
    a.finish();
    await tick();
    expect(log).toEqual(['a', 'b', 'c']);
    b.finish();
    c.finish();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
  });

  it("refuses a client's third render with 429 and Retry-After once it has waited clientWaitMs", async () => {
    const queue = queueWith({ clientWaitMs: 30 });
    const log: string[] = [];
    const [a, b] = [held(log, 'a'), held(log, 'b')];
    const first = [a, b].map((render) => queue.run({ kind: 'tool', client: 'one' }, render.work));
    const third = queue.run({ kind: 'tool', client: 'one' }, async () => 'never');
    await expect(third).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      details: { retryAfter: 2 },
    });
    // Another client is not held up by the first one's queue.
    expect(await queue.run({ kind: 'tool', client: 'two' }, async () => 'other')).toBe('other');
    a.finish();
    b.finish();
    await Promise.all(first);
  });

  it('starts a waiting thumbnail before waiting tool renders, and beside tool renders that hold every core', async () => {
    const queue = queueWith({ concurrency: 1 });
    const log: string[] = [];
    const heavy = held(log, 'heavy');
    const next = held(log, 'next');
    const runs = [
      queue.run({ kind: 'tool', client: 'one' }, heavy.work),
      queue.run({ kind: 'tool', client: 'two' }, next.work),
    ];
    await tick();
    expect(log).toEqual(['heavy']);
    // The only core is a tool render's: the thumbnail runs beside it at once.
    const thumbnail = held(log, 'thumbnail');
    const drawn = queue.run({ kind: 'background' }, thumbnail.work);
    await tick();
    expect(log).toEqual(['heavy', 'thumbnail']);
    // A second thumbnail waits for the first one, not for the tool renders, and goes first.
    const second = held(log, 'second thumbnail');
    const secondDrawn = queue.run({ kind: 'background' }, second.work);
    heavy.finish();
    await tick();
    expect(log).toEqual(['heavy', 'thumbnail']);
    thumbnail.finish();
    await tick();
    expect(log).toEqual(['heavy', 'thumbnail', 'second thumbnail']);
    second.finish();
    await tick();
    expect(log).toEqual(['heavy', 'thumbnail', 'second thumbnail', 'next']);
    next.finish();
    await Promise.all([...runs, drawn, secondDrawn]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('starts a thumbnail someone waits for before thumbnails drawn in the background', async () => {
    const queue = queueWith({ concurrency: 1 });
    const log: string[] = [];
    const renders = ['first', 'published 1', 'published 2'].map((name) => held(log, name));
    const runs = renders.map((render) => queue.run({ kind: 'background' }, render.work));
    const asked = held(log, 'asked');
    runs.push(queue.run({ kind: 'requested' }, asked.work));
    await tick();
    renders[0]?.finish();
    await tick();
    expect(log).toEqual(['first', 'asked']);
    asked.finish();
    for (const render of renders) render.finish();
    await Promise.all(runs);
    expect(log).toEqual(['first', 'asked', 'published 1', 'published 2']);
  });

  it('answers BUSY (503) to a render that found no core within queueWaitMs', async () => {
    const queue = queueWith({ concurrency: 1, queueWaitMs: 20 });
    const log: string[] = [];
    const first = held(log, 'first');
    const running = queue.run({ kind: 'background' }, first.work);
    await expect(queue.run({ kind: 'background' }, async () => 'late')).rejects.toMatchObject({
      code: 'BUSY',
      status: 503,
    });
    first.finish();
    await running;
  });
});
