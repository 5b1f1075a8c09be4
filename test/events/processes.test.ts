import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../items/fixtures.js';
import { createHttpClient, mapConcurrent } from '../support/http-client.js';
import {
  type CliProcess,
  runCli,
  startDbProcess,
  startServeProcess,
} from '../support/processes.js';
import { openSse } from '../support/sse.js';
import { type Receiver, startReceiver, until } from './receiver.js';

/**
 * Events out as production runs them: one `publish-gateway db` process, `serve` processes
 * pointed at it, and hooks written by the `webhook` command while they run.
 */
let workDir: string;
let db: CliProcess & { uri: string };
let mongo: MongoClient;
const receivers: Receiver[] = [];
const running: CliProcess[] = [];

const env = () => ({
  MONGODB_URI: db.uri,
  MONGODB_DB: 'events',
  DATA_DIR: join(workDir, 'data'),
  RATE_LIMIT_PUBLISH: '100000',
  EVENTS_POLL_INTERVAL_MS: '100',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
});
const webhook = (...args: string[]) => runCli(['webhook', ...args], env());
const serve = async () => {
  const instance = await startServeProcess(env());
  running.push(instance);
  return instance;
};
const deliveries = () => mongo.db('events').collection('webhook-deliveries');

async function addHook(receiver: Receiver): Promise<{ id: string; secret: string }> {
  const added = await webhook('add', '--url', receiver.url);
  expect(added.code, added.stderr).toBe(0);
  const secret = added.stdout.trim();
  const id = /Hook (wh_\S+)/.exec(added.stderr)?.[1] as string;
  expect(secret).toMatch(/^whsec_/);
  return { id, secret };
}

/** A hook on a new receiver, then an instance started (its sweeps set their marks) and killed. */
async function hookThenKilledStart(): Promise<{ receiver: Receiver; secret: string }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const { secret } = await addHook(receiver);
  const first = await serve();
  first.child.kill('SIGKILL');
  await first.stop();
  return { receiver, secret };
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'gateway-events-'));
  db = await startDbProcess(join(workDir, 'db'));
  mongo = await MongoClient.connect(db.uri);
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await Promise.all(running.map((instance) => instance.stop()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await db?.stop();
  await rm(workDir, { recursive: true, force: true });
}, 30_000);

describe('webhooks across processes', () => {
  it('a hook the command adds reaches a running instance within a second; list, rotate, deliveries and remove answer', async () => {
    const instance = await serve();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const http = createHttpClient(instance.url);
    try {
      const { id, secret } = await addHook(receiver);
      const listed = await webhook('list');
      expect(listed.stdout).toContain(
        `${id}  ${receiver.url}  work.published,work.removed,work.restored  everyone  active`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const code = await publish(http, '/api/store-clock', { source: 'c ; cli hook' });
      await until('the delivery', () => (receiver.received.length > 0 ? true : undefined), 1_500);
      expect(receiver.verifyAll(secret)[0]?.data.code).toBe(code);

      const shown = await webhook('deliveries', id);
      expect(shown.stdout).toMatch(
        /^msg_\S+ {2}work\.published {2}delivered {2}1 attempt\(s\)\n {4}\S+ {2}200 {2}\d+ ms\n$/,
      );
      const replayed = await webhook('replay', shown.stdout.split(' ')[0] as string);
      expect(replayed.code, replayed.stderr).toBe(0);
      await until('the replay', () => (receiver.received.length === 2 ? true : undefined));
      expect(receiver.ids().size).toBe(1);

      const rotated = await webhook('rotate', id);
      expect(rotated.stdout.trim()).toMatch(/^whsec_/);
      expect(rotated.stdout.trim()).not.toBe(secret);
      expect((await webhook('remove', id)).stdout).toBe(`removed ${id}\n`);
      expect(await webhook('remove', id)).toMatchObject({ code: 1, stderr: `No hook ${id}.\n` });
      const refused = await webhook('add', '--url', 'ftp://example.net/x');
      expect(refused).toMatchObject({
        code: 1,
        stderr: 'Not an http(s) URL: ftp://example.net/x\n',
      });
    } finally {
      http.close();
      await instance.stop();
    }
  }, 60_000);

  it('two instances over one database deliver each attempt once, and each streams every work', async () => {
    const receiver = await startReceiver((n) => (n % 5 === 0 ? 500 : 200));
    receivers.push(receiver);
    const { id, secret } = await addHook(receiver);
    const instances = await Promise.all([serve(), serve()]);
    const clients = instances.map((instance) => createHttpClient(instance.url));
    // Each instance's stream sees every work, whichever instance published it.
    const streams = await Promise.all(
      instances.map((instance) => openSse(`${instance.url}/api/works/stream`)),
    );
    try {
      const codes = await mapConcurrent(
        Array.from({ length: 100 }, (_, n) => n),
        6,
        (n) =>
          publish(clients[n % 2] as never, '/api/store-kidlisp', { source: `(wipe ${n}) ; two` }),
      );
      await until(
        'every work delivered',
        async () => {
          const done = await deliveries().countDocuments({ hook: id, state: 'delivered' });
          return done === 100 ? true : undefined;
        },
        60_000,
      );
      expect(new Set(receiver.verifyAll(secret).map((one) => one.data.code))).toEqual(
        new Set(codes),
      );
      // Each attempt reached the receiver once: as many requests as attempts logged, each
      // (webhook-id, attempt) once, and every failed first attempt retried by one instance.
      const logged = await deliveries()
        .find({ hook: id })
        .project<{ _id: string; attempts: number; log: unknown[] }>({ attempts: 1, log: 1 })
        .toArray();
      const attempts = logged.reduce((sum, one) => sum + one.log.length, 0);
      expect(receiver.received).toHaveLength(attempts);
      expect(logged.every((one) => one.attempts === one.log.length)).toBe(true);
      const perId = new Map<string, number>();
      for (const one of receiver.received) {
        const key = String(one.headers['webhook-id']);
        perId.set(key, (perId.get(key) ?? 0) + 1);
      }
      for (const one of logged) expect(perId.get(one._id), one._id).toBe(one.attempts);
      expect(attempts).toBeGreaterThan(100);
      await webhook('remove', id);
      for (const stream of streams) {
        const streamed = await until('every work on the stream', () => {
          const codes = stream.events
            .filter((event) => event.event === 'work.published')
            .map((event) => JSON.parse(event.data).code as string);
          return codes.length >= 100 ? codes : undefined;
        });
        expect(new Set(streamed)).toEqual(new Set(codes));
      }
    } finally {
      for (const stream of streams) stream.close();
      for (const client of clients) client.close();
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  }, 120_000);

  it('a service killed between a publish and its delivery delivers after restart, with the same webhook-id', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 503 : 200));
    receivers.push(receiver);
    const { id, secret } = await addHook(receiver);
    const first = await serve();
    const http = createHttpClient(first.url);
    const code = await publish(http, '/api/store-kidlisp', { source: '(wipe 9) ; killed' });
    http.close();
    // The first attempt failed and its retry waits: kill the service then, with SIGKILL.
    await until('the failed first attempt', async () => {
      const delivery = await deliveries().findOne({ hook: id });
      return delivery?.log?.length === 1 && delivery.lease === null ? true : undefined;
    });
    first.child.kill('SIGKILL');
    await first.stop();
    expect(receiver.received).toHaveLength(1);
    const second = await serve();
    try {
      await until(
        'the delivery after restart',
        () => (receiver.received.length === 2 ? true : undefined),
        15_000,
      );
      expect(receiver.ids().size).toBe(1);
      expect(receiver.verifyAll(secret).map((one) => one.data.code)).toEqual([code, code]);
    } finally {
      await second.stop();
      await webhook('remove', id);
    }
  }, 60_000);

  it('a work stored by a process killed before its event is found at the next start and delivered', async () => {
    const { receiver, secret } = await hookThenKilledStart();
    // What a process leaves when it dies right after storing a work: the work, no event.
    const when = new Date();
    await mongo.db('events').collection('clocks').insertOne({
      code: 'orphan',
      source: 'c e g ; orphan',
      hash: 'orphan-hash',
      when,
      lastAccessed: when,
      hits: 1,
    });
    const second = await serve();
    try {
      await until(
        'the orphan delivered',
        () => (receiver.received.length > 0 ? true : undefined),
        15_000,
      );
      expect(receiver.verifyAll(secret)[0]?.data).toMatchObject({ kind: 'clock', code: 'orphan' });
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('a work taken down by a process killed before its event is announced at the next start; a take-down cut short is not', async () => {
    const { receiver, secret } = await hookThenKilledStart();
    const stored = (code: string) => {
      const when = new Date();
      return { _id: new ObjectId(), code, source: `c e g ; ${code}`, hash: `${code}-hash`, when };
    };
    const removal = (record: ReturnType<typeof stored>) => ({
      _id: `clock~${record.code}`,
      kind: 'clock',
      code: record.code,
      record,
      hash: record.hash,
      by: 'operator',
      reason: 'a test',
      when: new Date(),
    });
    // What a process leaves when it dies right after a take-down: the work moved out, no event.
    await mongo
      .db('events')
      .collection('removed-works')
      .insertOne(removal(stored('gone')) as never);
    // And when it dies between the two steps: the entry written, the work still shown.
    const halfway = stored('halfway');
    await mongo.db('events').collection('clocks').insertOne(halfway);
    await mongo
      .db('events')
      .collection('removed-works')
      .insertOne(removal(halfway) as never);
    const second = await serve();
    try {
      // The start-up sweep has run before the service listens.
      const removed = await mongo
        .db('events')
        .collection('work-events')
        .find({ type: 'work.removed' })
        .toArray();
      expect(removed.map((event) => event.data.code)).toEqual(['gone']);
      const delivered = await until(
        'the take-down delivered',
        () => receiver.verifyAll(secret).find((body) => body.type === 'work.removed'),
        15_000,
      );
      expect(delivered.data).toMatchObject({ kind: 'clock', code: 'gone' });
    } finally {
      await second.stop();
    }
  }, 60_000);
});
