import { randomBytes } from 'node:crypto';
import type { DeliveryRecord, EventCollections, WebhookRecord } from '../collections.js';
import { EVENT_TYPES, type EventType } from '../event-types.js';
import { newWebhookSecret } from './signing.js';

/** After `webhook rotate`, the previous secret still signs beside the new one this long. */
export const ROTATION_GRACE_MS = 24 * 60 * 60_000;

export class WebhookInputError extends Error {
  override name = 'WebhookInputError';
}

/** Event type names, comma-separated; every one must be a type the service sends. */
export function parseEventTypes(text: string | undefined): EventType[] {
  if (text === undefined) return [...EVENT_TYPES];
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0)
    throw new WebhookInputError(
      `Unknown event type${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ') || '(none)'}; the service sends ${EVENT_TYPES.join(', ')}.`,
    );
  return [...new Set(names)] as EventType[];
}

/** An http(s) URL, stored as the operator gave it (the address is checked at each delivery). */
export function parseHookUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // said below
  }
  throw new WebhookInputError(`Not an http(s) URL: ${text}`);
}

export async function addHook(
  collections: EventCollections,
  input: { url: string; events?: string; author?: string },
): Promise<WebhookRecord> {
  const author = input.author?.trim().replace(/^@/, '');
  if (author !== undefined && !/^[\p{L}\p{N}._-]{1,64}$/u.test(author))
    throw new WebhookInputError(`Not a handle: ${input.author}`);
  const hook: WebhookRecord = {
    _id: `wh_${randomBytes(9).toString('base64url')}`,
    url: parseHookUrl(input.url),
    events: parseEventTypes(input.events),
    author: author ?? null,
    secret: newWebhookSecret(),
    created: new Date(),
    disabled: null,
  };
  await collections.hooks.insertOne(hook);
  return hook;
}

export const listHooks = (collections: EventCollections) =>
  collections.hooks.find({}, { sort: { created: 1 } }).toArray();

/** Removes a hook; its deliveries not yet made are dropped. False when there is no such hook. */
export async function removeHook(collections: EventCollections, id: string): Promise<boolean> {
  const { deletedCount } = await collections.hooks.deleteOne({ _id: id });
  if (deletedCount === 0) return false;
  await collections.deliveries.updateMany(
    { hook: id, state: 'pending' },
    { $set: { state: 'dropped', lease: null } },
  );
  return true;
}

/** A new secret for the hook (answered once); the old one signs beside it for ROTATION_GRACE_MS. */
export async function rotateHook(
  collections: EventCollections,
  id: string,
): Promise<string | undefined> {
  const hook = await collections.hooks.findOne({ _id: id });
  if (!hook) return undefined;
  const secret = newWebhookSecret();
  await collections.hooks.updateOne(
    { _id: id },
    {
      $set: {
        secret,
        previousSecret: hook.secret,
        previousUntil: new Date(Date.now() + ROTATION_GRACE_MS),
      },
    },
  );
  return secret;
}

/** Turns a disabled hook on again; false when there is no such hook. */
export async function enableHook(collections: EventCollections, id: string): Promise<boolean> {
  const { matchedCount } = await collections.hooks.updateOne(
    { _id: id },
    { $set: { disabled: null } },
  );
  return matchedCount > 0;
}

/** A hook's latest deliveries, newest first, with every attempt. */
export const listDeliveries = (collections: EventCollections, hook: string, limit = 50) =>
  collections.deliveries
    .find({ hook }, { sort: { created: -1 }, limit, projection: { payload: 0 } })
    .toArray() as Promise<Omit<DeliveryRecord, 'payload'>[]>;

/**
 * Sends a delivery again, with the same `webhook-id` and body, as soon as a deliverer takes it.
 * Undefined when there is no such delivery; refused while its hook is disabled or removed.
 */
export async function replayDelivery(
  collections: EventCollections,
  id: string,
): Promise<DeliveryRecord | undefined> {
  const delivery = await collections.deliveries.findOne({ _id: id });
  if (!delivery) return undefined;
  const hook = await collections.hooks.findOne({ _id: delivery.hook });
  if (!hook) throw new WebhookInputError(`The hook ${delivery.hook} of ${id} was removed.`);
  if (hook.disabled)
    throw new WebhookInputError(
      `The hook ${hook._id} is disabled (${hook.disabled.reason}); enable it first: webhook enable ${hook._id}`,
    );
  const now = new Date();
  // An attempt in flight keeps its lease: replaying then would send the same attempt twice.
  const { matchedCount } = await collections.deliveries.updateOne(
    { _id: id, $or: [{ lease: null }, { 'lease.until': { $lt: now } }] },
    { $set: { state: 'pending', nextAt: now, lease: null } },
  );
  if (matchedCount === 0)
    throw new WebhookInputError(`${id} is being delivered now; replay it once that attempt ends.`);
  return delivery;
}
