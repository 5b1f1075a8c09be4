import type { RequestContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { ItemKind } from '../items/item.js';
import { removalOf, removedError } from './removal.js';
import { removedWorks } from './store.js';

/**
 * A take-down is not undone by publishing again: the same source (its dedup hash) or media slug
 * of a work an operator removed is refused with ITEM_REMOVED before anything is stored. A work
 * its author deleted may be published anew.
 */
export async function refuseTakenDown(
  ctx: RequestContext,
  kind: ItemKind,
  identity: { hash: string } | { slug: string },
): Promise<void> {
  const entry = await removedWorks(ctx.services.db).findOne(
    { ...identity, kind, by: 'operator' },
    { projection: { _id: 1, kind: 1, code: 1, by: 1, when: 1 } },
  );
  if (entry) throw removedError(removalOf(entry));
}

/** A melody code not held by a removed melody (clock codes have no registry to keep them). */
export async function unremovedClockCode(
  db: Database,
  candidates: Iterator<string>,
): Promise<string> {
  for (;;) {
    const code = candidates.next().value as string;
    if (!(await removedWorks(db).findOne({ _id: `clock~${code}` }, { projection: { _id: 1 } })))
      return code;
  }
}
