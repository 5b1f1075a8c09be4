import type { Db } from 'mongodb';
import { Gauge, type Registry } from 'prom-client';

/** What the embedded database's serverStatus says of an index being built (src/db/embedded/index-build.ts). */
interface IndexBuildState {
  ns: string;
  index: string;
  done: number;
  total: number;
}

/**
 * `database_index_build_progress{collection,index}`: how far each index being built in the
 * background by the embedded database has come (0 to 1), read at each scrape; no series once
 * every index is complete, or on a MongoDB server.
 */
export function registerIndexBuildMetric(registry: Registry, db: Db): void {
  new Gauge({
    name: 'database_index_build_progress',
    help: 'Share of the documents an index being built in the background has reached (embedded database)',
    labelNames: ['collection', 'index'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const status = await db
        .admin()
        .command({ serverStatus: 1 }, { timeoutMS: 2_000 })
        .catch(() => undefined);
      const building = (status?.indexBuilds?.inProgress ?? []) as IndexBuildState[];
      for (const { ns, index, done, total } of building)
        this.set({ collection: ns, index }, total > 0 ? Math.min(1, done / total) : 0);
    },
  });
}
