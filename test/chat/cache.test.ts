import { describe, expect, it } from 'vitest';
import { createSharedCache } from '../../src/operations/chat/cache.js';

describe('createSharedCache', () => {
  it('keeps a value for its time to live, then loads again (on a stepped clock)', async () => {
    let now = 10_000;
    const cache = createSharedCache<{ n: number }>({
      max: 10,
      ttlMs: 200,
      perf: { now: () => now },
    });
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read('k', load)).toEqual({ n: 1 });
    now += 199; // just before expiry
    expect(cache.peek('k')).toEqual({ n: 1 });
    expect(await cache.read('k', load)).toEqual({ n: 1 });
    expect(loads).toBe(1);
    now += 2; // just after expiry (201 ms since the value was stored)
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.read('k', load)).toEqual({ n: 2 });
    expect(loads).toBe(2);
    // The reloaded value gets its own time to live, counted from its load.
    now += 199;
    expect(await cache.read('k', load)).toEqual({ n: 2 });
    now += 2;
    expect(await cache.read('k', load)).toEqual({ n: 3 });
    expect(loads).toBe(3);
  });

  it('shares one load among concurrent misses and does not keep a failure', async () => {
    const cache = createSharedCache<{ n: number }>({ max: 10, ttlMs: 120_000 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async () => {
      loads++;
      await gate;
      return { n: loads };
    };
    const waiting = Promise.all([
      cache.read('k', slow),
      cache.read('k', slow),
      cache.read('k', slow),
    ]);
    release();
    expect(await waiting).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(loads).toBe(1);

    await expect(cache.read('bad', async () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await cache.read('bad', async () => ({ n: 7 }))).toEqual({ n: 7 });
  });

  it('stays within its size bound', async () => {
    const cache = createSharedCache<{ key: string }>({ max: 2, ttlMs: 120_000 });
    let loads = 0;
    const load = (key: string) => async () => {
      loads++;
      return { key };
    };
    for (const key of ['a', 'b', 'c', 'a']) await cache.read(key, load(key));
    expect(loads).toBe(4); // 'a' was evicted by 'c'
  });
});
