import { perProcess, type Services } from '../../context.js';
import { markWorksChanged } from '../items/works-version.js';
import { readRemovalGeneration } from './store.js';

/** How often an instance asks whether a work was removed or restored anywhere. */
export const REMOVAL_POLL_MS = 250;

type Listener = () => void;

const listenersOf = perProcess(() => new Set<Listener>());

/** Calls `listener` whenever a work is removed or restored, here or by another process. */
export function onWorksRemoved(services: Services, listener: Listener): void {
  listenersOf(services).add(listener);
}

/** What this process kept of works is stale: listings start anew, listeners drop their views. */
export function announceRemovals(services: Services): void {
  markWorksChanged(services);
  for (const listener of listenersOf(services)) listener();
}

/**
 * Follows the removal counter (store.ts) so that a work removed by `work remove`, or through
 * another instance over the same database, leaves this one's kept pages within REMOVAL_POLL_MS.
 * One lookup by `_id` per tick; a database away is simply asked again at the next tick.
 */
export function watchRemovals(services: Services, intervalMs = REMOVAL_POLL_MS): { stop(): void } {
  let seen: number | undefined;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const generation = await readRemovalGeneration(services.db);
      if (seen !== undefined && generation !== seen) announceRemovals(services);
      seen = generation;
    } catch {
      // The database is away: the next tick asks again.
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
