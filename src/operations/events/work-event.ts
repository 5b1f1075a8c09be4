import type { Document } from 'mongodb';
import type { Database } from '../../db/client.js';
import type { ItemKind } from '../../domain/item-kinds.js';
import { createHandleLoaders } from '../handle-loaders.js';
import { toItem } from '../items/item.js';
import type { EventType, WorkEventData } from './event-types.js';

/** The fields of a stored work an event is made of. */
export const WORK_EVENT_FIELDS = { code: 1, when: 1, user: 1, remixOf: 1, slug: 1 } as const;

/**
 * A work's event is recorded once: its key names the type and the work, and for a removal or a
 * restore the removal's time too, since a work may be removed, restored and removed again.
 */
export const eventKey = (type: EventType, kind: ItemKind, code: string, removedAt?: Date) =>
  `${type} ${kind}:${code}${removedAt ? ` ${removedAt.toISOString()}` : ''}`;

/** A stored work (or a removed one's record) an event is made of. */
export interface EventWork {
  kind: ItemKind;
  record: Document;
  /** The removal a `work.removed` or `work.restored` event is about. */
  removedAt?: Date;
}

/** What events say of stored works (the authors' handles read in one query). */
export async function workEventData(
  db: Database,
  publicUrl: string,
  works: EventWork[],
): Promise<WorkEventData[]> {
  const handles = createHandleLoaders(db).handles;
  return Promise.all(
    works.map(async ({ kind, record, removedAt }) => {
      const item = toItem(kind, record as never, publicUrl);
      const handle = item.user ? await handles.load(item.user) : null;
      return {
        kind,
        code: item.code,
        url: item.url,
        author: handle ? `@${handle}` : null,
        remixOf: item.remixOf?.address ?? null,
        when: (item.when instanceof Date ? item.when : new Date(0)).toISOString(),
        ...(removedAt ? { removedAt: removedAt.toISOString() } : {}),
      };
    }),
  );
}
