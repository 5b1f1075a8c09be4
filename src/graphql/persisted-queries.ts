import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** The store is bounded both ways: this many documents, this many characters in all. */
export const PERSISTED_QUERY_MAX_ENTRIES = 2_000;
const PERSISTED_QUERY_MAX_CHARS = 8_000_000;

interface PersistedQueryExtension {
  version: number;
  sha256Hash: string;
}

function persistedQueryOf(extensions: unknown): PersistedQueryExtension | undefined {
  const value = (extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, sha256Hash } = value as Record<string, unknown>;
  return typeof sha256Hash === 'string' && typeof version === 'number'
    ? { version, sha256Hash: sha256Hash.toLowerCase() }
    : undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Thrown, so that no later `onParams` hook (Yoga's "Must provide query string") runs. */
const failure = (message: string, code: string) =>
  new GraphQLError(message, { extensions: { code } });

/**
 * Apollo's automatic persisted queries: a request may carry only the SHA-256 of its document
 * (`extensions.persistedQuery`). An unknown hash answers PERSISTED_QUERY_NOT_FOUND, the client
 * sends the document with its hash once, and from then on the hash alone serves, over GET too
 * (so a shared cache can keep the short URL). The store is in memory, per process, and bounded.
 */
export function usePersistedQueries(): Plugin {
  const store = new LRUCache<string, string>({
    max: PERSISTED_QUERY_MAX_ENTRIES,
    maxSize: PERSISTED_QUERY_MAX_CHARS,
    sizeCalculation: (query) => Math.max(1, query.length),
  });
  return {
    onParams({ params, setParams }) {
      const persisted = persistedQueryOf(params.extensions);
      if (!persisted) return;
      if (persisted.version !== 1) {
        throw failure('Only version 1 of persisted queries is supported.', 'INVALID_INPUT');
      }
      if (typeof params.query === 'string' && params.query !== '') {
        if (sha256(params.query) !== persisted.sha256Hash) {
          throw failure(
            'The persisted query hash is not the SHA-256 of the query.',
            'PERSISTED_QUERY_HASH_MISMATCH',
          );
        }
        store.set(persisted.sha256Hash, params.query);
        return;
      }
      const query = store.get(persisted.sha256Hash);
      if (query === undefined) {
        // Apollo's links recognise both this message and this code.
        throw failure('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      }
      setParams({ ...params, query });
    },
  };
}
