import type { EventCollections } from './collections.js';
import type { WorksHub } from './works-hub.js';

/** Events out, for one process: the works stream, the webhook deliverer and the sweeper. */
export interface EventsRuntime {
  collections: EventCollections;
  hub: WorksHub;
  /** An event was just recorded here: deliver it now rather than at the next poll. */
  nudge(): void;
  close(): Promise<void>;
}
