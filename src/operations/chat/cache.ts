import { LRUCache, type Perf } from 'lru-cache';
import type { ChatPage } from './chat-page.js';

export const CHAT_CACHE_TTL_MS = 120_000;
export const CHAT_CACHE_MAX_ENTRIES = 1_000;

/** A bounded cache with a time to live, where concurrent misses of one key share one load. */
export interface SharedCache<V extends object> {
  read(key: string, load: () => Promise<V>): Promise<V>;
  /** The value while it is fresh, without loading it. */
  peek(key: string): V | undefined;
}

export interface SharedCacheOptions {
  max: number;
  ttlMs: number;
  /**
   * The clock the time to live is measured on (lru-cache's `perf`); `performance` when absent.
   * An injected clock is read at every check (no `ttlResolution` caching), so tests can step it.
   */
  perf?: Perf;
}

export function createSharedCache<V extends object>(options: SharedCacheOptions): SharedCache<V> {
  const settled = new LRUCache<string, V>({
    max: options.max,
    ttl: options.ttlMs,
    ...(options.perf ? { perf: options.perf, ttlResolution: 0 } : {}),
  });
  const loading = new Map<string, Promise<V>>();
  return {
    read(key, load) {
      const hit = settled.get(key);
      if (hit) return Promise.resolve(hit);
      let pending = loading.get(key);
      if (!pending) {
        pending = load()
          .then((value) => {
            settled.set(key, value);
            return value;
          })
          .finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      return pending;
    },
    peek: (key) => settled.get(key),
  };
}

/** GET /api/chat-messages pages, shared by every request of the process. */
export type ChatCache = SharedCache<ChatPage>;

export const createChatCache = (options: { max?: number; ttlMs?: number } = {}): ChatCache =>
  createSharedCache<ChatPage>({
    max: options.max ?? CHAT_CACHE_MAX_ENTRIES,
    ttlMs: options.ttlMs ?? CHAT_CACHE_TTL_MS,
  });
