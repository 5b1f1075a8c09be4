import { AppError } from '../../app-error.js';
import { perProcess, type RequestContext, type Services } from '../../context.js';
import type { RemixOfField } from '../../db/collections.js';
import { loadAddress } from '../items/loaders.js';
import { failIfRemoved } from '../takedowns/removal.js';

/**
 * The stored link to the work `address` names, before anything is written; ITEM_NOT_FOUND (with
 * `field: remixOf`) when nothing has it. Since the parent exists first, no cycle can form.
 */
export async function linkToParent(
  ctx: RequestContext,
  address: string | undefined,
): Promise<RemixOfField | undefined> {
  if (address === undefined) return undefined;
  const parent = await loadAddress(ctx, address);
  if (!parent) await failIfRemoved(ctx, address, { field: 'remixOf' });
  if (!parent)
    throw new AppError(
      'ITEM_NOT_FOUND',
      `remixOf names nothing: nothing is published under the code ${address}.`,
      { field: 'remixOf' },
    );
  return { kind: parent.kind, code: parent.code };
}

/** The record's field for the link, spread into the record it goes with. */
export const remixOfRecord = (link: RemixOfField | undefined): { remixOf?: RemixOfField } =>
  link ? { remixOf: link } : {};

type RemixListener = (parent: RemixOfField) => void;

/** Per process and services: who is told that a work gained a remix (the viewer pages' cache). */
const listenersOf = perProcess(() => new Set<RemixListener>());

/** Calls `listener` with the parent each time a new remix is published through these services. */
export function onRemixPublished(services: Services, listener: RemixListener): void {
  listenersOf(services).add(listener);
}

/** Tells the listeners when a publish stored a new remix (a cached answer changed nothing). */
export function announceRemix(
  ctx: RequestContext,
  link: RemixOfField | undefined,
  outcome: { cached: boolean },
): void {
  if (!link || outcome.cached) return;
  for (const listener of listenersOf(ctx.services)) listener(link);
}
