import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../logger.js';
import type {
  AttemptRecord,
  DeliveryRecord,
  EventCollections,
  WebhookRecord,
  WorkEventRecord,
} from '../collections.js';
import type { EventEnvelope } from '../event-types.js';
import { type SendResult, sendAttempt } from './send.js';
import { webhookHeaders } from './signing.js';
import { createWriteBatch } from './write-batch.js';

export interface DelivererOptions {
  collections: EventCollections;
  logger: Logger;
  /**
   * How often due work is looked for when nothing woke this instance: events published here
   * nudge it, and a retry it scheduled wakes it at its time, so this only finds what other
   * instances left (a killed one's leases, events the sweeper recorded).
   */
  idlePollMs: number;
  allowPrivate: boolean;
  /** The wait before each retry; after the last retry fails the hook is disabled. */
  retryDelaysMs: number[];
  /** Attempts sent at once by this instance. */
  concurrency?: number;
}

/** An attempt's lease outlasts its timeout (src/operations/events/webhooks/send.ts) by far. */
export const LEASE_MS = 60_000;
const JITTER = 0.2;
const FAN_OUT_BATCH = 100;

export interface Deliverer {
  /** Something is due now (a publish here): look at once rather than at the next poll. */
  nudge(): void;
  close(): Promise<void>;
}

const withJitter = (ms: number) => Math.round(ms * (1 - JITTER + Math.random() * 2 * JITTER));

const wants = (hook: WebhookRecord, event: WorkEventRecord) =>
  !hook.disabled &&
  hook.events.includes(event.type) &&
  (hook.author === null || event.data.author === `@${hook.author}`);

export const envelopeOf = (event: WorkEventRecord): EventEnvelope => ({
  type: event.type,
  timestamp: event.when.toISOString(),
  data: event.data,
});

/**
 * Delivers recorded events to the hooks that want them, at least once, from the database:
 * each event is fanned out into one delivery per hook (ids made of the event and the hook, so
 * fanning out twice makes nothing twice); each attempt is claimed with an atomic
 * findOneAndUpdate lease, so two instances never send the same attempt; a failed attempt is
 * retried after the next delay of the schedule, with jitter, and the last failure disables the hook.
 */
export function startDeliverer(options: DelivererOptions): Deliverer {
  const { collections, logger } = options;
  const owner = randomBytes(8).toString('hex');
  const concurrency = options.concurrency ?? 16;
  let stopped = false;
  /** Attempts' outcomes, written together when many end at once (a fan-out to many hooks). */
  const settleWrite = createWriteBatch(collections.deliveries);
  /** Deliveries this instance made and holds the lease of: their first attempt is its to send. */
  const ready: { delivery: DeliveryRecord; hook: WebhookRecord }[] = [];
  /** Moves on every nudge: a worker that saw it move since its last look does not sleep. */
  let generation = 0;
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    generation += 1;
    for (const wake of [...sleepers]) wake();
  };

  /** The first worker looks every idle poll; the others sleep until there is work. */
  const pause = (index: number, seen: number) =>
    new Promise<void>((resolve) => {
      if (stopped || generation !== seen) return resolve();
      const timer = setTimeout(wake, index === 0 ? options.idlePollMs : 10 * options.idlePollMs);
      function wake() {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      }
      sleepers.add(wake);
    });

  /**
   * Makes the deliveries of new events, each already leased to this instance for its first
   * attempt: the insert that makes a delivery is its claim (an instance whose insert met another's
   * leaves that one to it), so a first attempt costs no claim round trip.
   */
  async function fanOut(): Promise<number> {
    const events = await collections.events
      .find({ fannedOut: false }, { sort: { when: 1, _id: 1 }, limit: FAN_OUT_BATCH })
      .toArray();
    if (events.length === 0) return 0;
    const hooks = await collections.hooks.find({ disabled: null }).toArray();
    const now = new Date();
    const made = events.flatMap((event) =>
      hooks
        .filter((hook) => wants(hook, event))
        .map((hook) => ({
          hook,
          delivery: {
            _id: `msg_${event._id.toHexString()}_${hook._id.slice(3)}`,
            hook: hook._id,
            event: event._id,
            type: event.type,
            payload: JSON.stringify(envelopeOf(event)),
            state: 'pending' as const,
            attempts: 1,
            nextAt: now,
            lease: { owner, until: new Date(now.getTime() + LEASE_MS) },
            log: [],
            created: now,
          } satisfies DeliveryRecord,
        })),
    );
    const refused = new Set<number>();
    if (made.length > 0)
      await collections.deliveries
        .insertMany(
          made.map((one) => one.delivery),
          { ordered: false },
        )
        .catch((error) => {
          // Another instance fanned the same events out first: theirs stand, and are theirs to send.
          const written = error as {
            code?: number;
            writeErrors?: { code?: number; index: number }[];
          };
          const failures = written.writeErrors ?? [];
          if (failures.length === 0 || failures.some((one) => one.code !== 11000)) throw error;
          for (const one of failures) refused.add(one.index);
        });
    ready.push(...made.filter((_, index) => !refused.has(index)));
    await collections.events.updateMany(
      { _id: { $in: events.map((event) => event._id) } },
      { $set: { fannedOut: true } },
    );
    return events.length;
  }

  async function claim(): Promise<DeliveryRecord | null> {
    const now = new Date();
    return collections.deliveries.findOneAndUpdate(
      {
        state: 'pending',
        nextAt: { $lte: now },
        $or: [{ lease: null }, { 'lease.until': { $lt: now } }],
      },
      {
        $set: { lease: { owner, until: new Date(now.getTime() + LEASE_MS) } },
        $inc: { attempts: 1 },
      },
      { sort: { nextAt: 1 }, returnDocument: 'after' },
    );
  }

  async function settle(
    delivery: DeliveryRecord,
    hook: WebhookRecord | null,
    sent: SendResult | string,
  ) {
    const attempt: AttemptRecord =
      typeof sent === 'string'
        ? { at: new Date(), status: null, ms: 0, error: sent, body: null }
        : { at: new Date(), ...sent };
    const ok = typeof sent !== 'string' && sent.error === null;
    const retryIn = options.retryDelaysMs[delivery.attempts - 1];
    const state = ok
      ? 'delivered'
      : !hook || hook.disabled
        ? 'dropped'
        : retryIn === undefined
          ? 'failed'
          : 'pending';
    const retryAfter = state === 'pending' ? withJitter(retryIn ?? 0) : 0;
    await settleWrite({
      updateOne: {
        filter: { _id: delivery._id, 'lease.owner': owner, attempts: delivery.attempts },
        update: {
          $set: {
            state,
            lease: null,
            nextAt: new Date(Date.now() + retryAfter),
          },
          $push: { log: attempt },
        },
      },
    });
    // The retry is this instance's to wake for (another may take it first: the claim decides).
    if (state === 'pending') setTimeout(wakeAll, retryAfter + 5).unref();
    if (state === 'failed' && hook) {
      const reason = `${delivery.attempts} attempts of ${delivery._id} failed; the last: ${attempt.error}`;
      await collections.hooks.updateOne(
        { _id: hook._id, disabled: null },
        { $set: { disabled: { at: new Date(), reason } } },
      );
      logger.warn({ hook: hook._id, reason }, 'webhook disabled');
    }
  }

  async function attempt(delivery: DeliveryRecord, known?: WebhookRecord): Promise<void> {
    const hook = known ?? (await collections.hooks.findOne({ _id: delivery.hook }));
    if (!hook || hook.disabled) {
      await settle(
        delivery,
        hook,
        hook ? `the hook is disabled: ${hook.disabled?.reason}` : 'the hook was removed',
      );
      return;
    }
    const secrets = [
      hook.secret,
      ...(hook.previousSecret && hook.previousUntil && hook.previousUntil > new Date()
        ? [hook.previousSecret]
        : []),
    ];
    const timestamp = Math.floor(Date.now() / 1000);
    const sent = await sendAttempt({
      url: hook.url,
      headers: webhookHeaders(secrets, delivery._id, timestamp, delivery.payload),
      body: delivery.payload,
      allowPrivate: options.allowPrivate,
    });
    await settle(delivery, hook, sent);
  }

  async function worker(index: number): Promise<void> {
    while (!stopped) {
      const seen = generation;
      try {
        const made = ready.shift();
        if (made) {
          await attempt(made.delivery, made.hook);
          continue;
        }
        const delivery = await claim();
        if (delivery) {
          if (index === 0) wakeAll();
          await attempt(delivery);
          continue;
        }
      } catch (error) {
        if (stopped) break;
        logger.warn({ err: error }, 'webhook deliverer failed; retrying');
      }
      await pause(index, seen);
    }
  }

  /** Makes the deliveries of new events; the first worker's pace, woken by a nudge too. */
  async function fanOutLoop(): Promise<void> {
    while (!stopped) {
      const seen = generation;
      try {
        if ((await fanOut()) > 0) {
          wakeAll();
          continue;
        }
      } catch (error) {
        if (stopped) break;
        logger.warn({ err: error }, 'webhook fan-out failed; retrying');
      }
      await pause(0, seen);
    }
  }

  const workers = [
    fanOutLoop(),
    ...Array.from({ length: concurrency }, (_, index) => worker(index)),
  ];
  return {
    nudge: wakeAll,
    async close() {
      stopped = true;
      wakeAll();
      await Promise.all(workers);
      // First attempts made here but not sent: another instance (or the next start) sends them now.
      const unsent = ready.splice(0).map((made) => made.delivery._id);
      if (unsent.length > 0)
        await collections.deliveries
          .updateMany(
            { _id: { $in: unsent }, 'lease.owner': owner },
            { $set: { lease: null }, $inc: { attempts: -1 } },
          )
          .catch((error: unknown) => logger.warn({ err: error }, 'unsent deliveries not released'));
    },
  };
}
