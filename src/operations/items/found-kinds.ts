import { LRUCache } from 'lru-cache';
import { perProcess } from '../../context.js';
import type { ItemKind } from './item.js';

const REMEMBERED_CODES = 100_000;

/**
 * The kind each shared code was last found as, so that reading it again asks one collection
 * instead of every collection of the shared namespace. Only a first guess: when that collection
 * no longer has the code (deleted, its code given to a new work), the lookup asks them all.
 */
export const foundKinds = perProcess(
  () => new LRUCache<string, ItemKind>({ max: REMEMBERED_CODES }),
);
