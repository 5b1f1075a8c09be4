import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeKindOf } from '../../src/db/collections.js';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';
import type { SharedKind } from '../../src/domain/item-kinds.js';
import { storageKeyOf } from '../../src/domain/media.js';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  createHttpClient,
  freePort,
  HangError,
  type HttpClient,
  type RawResponse,
} from '../support/http-client.js';

/**
 * The database goes away in the middle of a load of publishes and chat reads, then comes back
 * on the same port and data directory. Users see 503 DB_UNAVAILABLE (never a 500, never a hang),
 * the service recovers by itself, and nothing half-written is left behind.
 */

type Kind = 'kidlisp' | 'clock' | 'piece' | 'media' | 'chat' | 'graphql';
const KINDS: Kind[] = ['kidlisp', 'clock', 'piece', 'media', 'chat', 'graphql'];
/** Successful requests of each kind before the database is stopped. */
const HEALTHY_RUNS_PER_KIND = 5;

interface Outcome {
  kind: Kind;
  started: number;
  ended: number;
  response?: RawResponse;
  failure?: Error;
  /** What was sent, to find it in the database afterwards. */
  sent: { source?: string; slug?: string };
}

const WORKERS = 12;
/** Generous for a 2-core machine: server selection gives up after 2 s, a request may wait twice. */
const MAX_REQUEST_MS = 5_000;
const RECOVERY_BUDGET_MS = 5_000;
const MEDIA_SLUGS = 400;
const nonce = Date.now().toString(36);

let port: number;
let dataDir: string;
let mongo: EmbeddedMongo | undefined;
let app: TestApp;
let client: HttpClient;
const outcomes: Outcome[] = [];
let counter = 0;
let mediaNext = 0;

const mediaSlug = (i: number) =>
  i % 2 ? `2026/05/06/load-${nonce}-${i}.png` : `2026/05/06/load-${nonce}-${i}.mp4`;

/** One request of a kind, with a payload no other request sends. */
async function fire(kind: Kind): Promise<Outcome> {
  const n = ++counter;
  const started = performance.now();
  const sent: Outcome['sent'] = {};
  let request: Promise<RawResponse>;
  switch (kind) {
    case 'kidlisp':
      sent.source = `(wipe navy)\n(ink yellow)\n(line 0 0 ${n} ${nonce.length})  ; ${nonce}`;
      request = client.post('/api/store-kidlisp', { source: sent.source });
      break;
    case 'clock':
      sent.source = `c d e f g a b ${n} ${nonce}`;
      request = client.post('/api/store-clock', { source: sent.source });
      break;
    case 'piece':
      sent.source = `export function paint({ wipe }) { wipe(${n}); } // ${nonce}`;
      request = client.post('/api/store-piece', { source: sent.source });
      break;
    case 'media': {
      const i = mediaNext++ % MEDIA_SLUGS;
      sent.slug = mediaSlug(i);
      request = client.post('/api/track-media', { slug: sent.slug, ext: i % 2 ? 'png' : 'mp4' });
      break;
    }
    case 'chat': {
      // A `before` no other request used: a cache miss, so the read goes to the database.
      const before = new Date(Date.UTC(2030, 0, 1) + n).toISOString();
      const instance = ['system', 'clock', 'all'][n % 3];
      request = client.get(`/api/chat-messages?instance=${instance}&limit=20&before=${before}`);
      break;
    }
    case 'graphql':
      sent.source = `(wipe teal) ; graphql ${n} ${nonce}`;
      request = client.graphql(
        'mutation ($source: String!) { publishKidlisp(source: $source) { code cached } }',
        { source: sent.source },
      );
      break;
  }
  try {
    const response = await request;
    return { kind, started, ended: performance.now(), response, sent };
  } catch (error) {
    return { kind, started, ended: performance.now(), failure: error as Error, sent };
  }
}

function succeeded(outcome: Outcome): boolean {
  const response = outcome.response;
  if (!response || response.status >= 300) return false;
  if (outcome.kind === 'graphql')
    return !response.json?.errors && typeof response.json?.data?.publishKidlisp?.code === 'string';
  return true;
}

/** What a user may see while the database is away: success, or 503 DB_UNAVAILABLE with Retry-After. */
function describeUnexpected(outcome: Outcome): string | undefined {
  const { response, failure } = outcome;
  const ms = Math.round(outcome.ended - outcome.started);
  if (failure)
    return `${outcome.kind}: ${failure instanceof HangError ? 'hung' : 'failed'} after ${ms} ms: ${failure.message}`;
  if (!response) return `${outcome.kind}: no response`;
  if (ms > MAX_REQUEST_MS) return `${outcome.kind}: answered only after ${ms} ms`;
  if (outcome.kind === 'graphql') {
    const errors = (response.json?.errors ?? []) as { extensions?: { code?: string } }[];
    if (response.status !== 200) return `graphql: HTTP ${response.status}`;
    const codes = errors.map((error) => error.extensions?.code);
    if (codes.some((code) => code !== 'DB_UNAVAILABLE'))
      return `graphql: error codes ${JSON.stringify(codes)}`;
    return undefined;
  }
  if (response.status < 300) return undefined;
  const body = response.json;
  if (response.status !== 503 || body?.code !== 'DB_UNAVAILABLE')
    return `${outcome.kind}: ${response.status} ${response.text.slice(0, 200)}`;
  if (typeof body.error !== 'string' || body.message !== body.error)
    return `${outcome.kind}: 503 body not contract-shaped: ${response.text}`;
  if (response.headers['retry-after'] === undefined)
    return `${outcome.kind}: 503 without Retry-After`;
  return undefined;
}

const isUnavailable = (outcome: Outcome) =>
  outcome.kind === 'graphql'
    ? outcome.response?.json?.errors?.[0]?.extensions?.code === 'DB_UNAVAILABLE'
    : outcome.response?.status === 503;

let stopLoad = false;
/** Each worker loops over the kinds, starting at a different one, until told to stop. */
function startLoad(): Promise<void> {
  return Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let turn = worker; !stopLoad && outcomes.length < 5_000; turn++) {
        outcomes.push(await fire(KINDS[turn % KINDS.length] as Kind));
      }
    }),
  ).then(() => undefined);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stoppedAt = 0;
let restartedAt = 0;
let health: { healthz: number; readyz: number; readyzMs: number } | undefined;
let recoveryMs: Partial<Record<Kind, number>> = {};

beforeAll(async () => {
  port = await freePort();
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-outage-'));
  mongo = await startEmbeddedMongo({ port, dataDir });
  app = await startTestApp({ MONGODB_URI: mongo.uri });
  client = createHttpClient(app.url, { maxSockets: WORKERS + 16, timeoutMs: 10_000 });
  const storage = app.services.storage;
  for (let i = 0; i < MEDIA_SLUGS; i++)
    await storage.put(mediaSlug(i), Buffer.from(`media ${i}`), i % 2 ? 'image/png' : 'video/mp4');
  const when = Date.UTC(2026, 2, 1);
  await app.db.chat.system.insertMany(
    Array.from({ length: 60 }, (_, i) => ({
      _id: new ObjectId(),
      text: `hello ${i}`,
      when: new Date(when + i * 1000),
      user: 'acct-1',
    })),
  );
  await app.db.chat.clock.insertMany(
    Array.from({ length: 30 }, (_, i) => ({
      _id: new ObjectId(),
      text: `tick ${i}`,
      when: new Date(when + i * 1500),
    })),
  );
  await app.db.handles.insertOne({ _id: 'acct-1', handle: 'ada' });
  await client.ready();

  // Healthy load, the database stops, stays away, comes back; the load never pauses.
  const load = startLoad();
  // Healthy until every kind of request has succeeded a few times (counted, not timed).
  const healthyRuns = (kind: Kind) =>
    outcomes.filter((outcome) => outcome.kind === kind && succeeded(outcome)).length;
  const healthyUntil = performance.now() + 20_000;
  while (KINDS.some((kind) => healthyRuns(kind) < HEALTHY_RUNS_PER_KIND)) {
    if (performance.now() > healthyUntil) break;
    await sleep(20);
  }
  stoppedAt = performance.now();
  await mongo.close();
  mongo = undefined;
  await sleep(300);
  // Besides the load, one request of every kind while the database is certainly away.
  const probes = Promise.all(KINDS.map(async (kind) => outcomes.push(await fire(kind))));
  const [healthz, readyz] = await Promise.all([client.get('/healthz'), client.get('/readyz')]);
  await probes;
  health = { healthz: healthz.status, readyz: readyz.status, readyzMs: readyz.ms };
  await sleep(Math.max(0, 3_000 - (performance.now() - stoppedAt)));

  mongo = await startEmbeddedMongo({ port, dataDir });
  restartedAt = performance.now();
  // Keep the load going until every kind has succeeded again (or well past the budget).
  while (performance.now() - restartedAt < RECOVERY_BUDGET_MS + 3_000) {
    recoveryMs = {};
    for (const outcome of outcomes) {
      if (outcome.ended > restartedAt && succeeded(outcome)) {
        recoveryMs[outcome.kind] = Math.min(
          recoveryMs[outcome.kind] ?? Infinity,
          outcome.ended - restartedAt,
        );
      }
    }
    if (KINDS.every((kind) => recoveryMs[kind] !== undefined)) break;
    await sleep(50);
  }
  stopLoad = true;
  await load;
}, 60_000);

afterAll(async () => {
  stopLoad = true;
  client?.close();
  await app?.close();
  await mongo?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the database stops during load', () => {
  it('serves the load while the database is up', () => {
    const healthy = outcomes.filter((outcome) => outcome.ended < stoppedAt);
    for (const kind of KINDS)
      expect(
        healthy.filter((outcome) => outcome.kind === kind && succeeded(outcome)).length,
        kind,
      ).toBeGreaterThanOrEqual(HEALTHY_RUNS_PER_KIND);
    expect(healthy.filter((outcome) => !succeeded(outcome)).map(describeUnexpected)).toEqual([]);
  });

  it('answers 503 DB_UNAVAILABLE with Retry-After while it is away: never a 500, never a hang', () => {
    const during = outcomes.filter(
      (outcome) => outcome.ended > stoppedAt && outcome.started < restartedAt,
    );
    expect(during.map(describeUnexpected).filter(Boolean)).toEqual([]);
    // Every kind of request noticed the outage (uncached chat reads included).
    for (const kind of KINDS)
      expect(
        during.filter((outcome) => outcome.kind === kind && isUnavailable(outcome)).length,
        kind,
      ).toBeGreaterThan(0);
    const slowest = Math.max(...during.map((outcome) => outcome.ended - outcome.started));
    expect(slowest).toBeLessThan(MAX_REQUEST_MS);
  });

  it('keeps the process up: /healthz 200, /readyz 503', () => {
    expect(health).toMatchObject({ healthz: 200, readyz: 503 });
    expect(health?.readyzMs).toBeLessThan(MAX_REQUEST_MS);
  });

  it(`succeeds again within ${RECOVERY_BUDGET_MS / 1000} s of the database coming back, for every kind of request`, async () => {
    for (const kind of KINDS) expect(recoveryMs[kind], kind).toBeLessThan(RECOVERY_BUDGET_MS);
    const after = outcomes.filter((outcome) => outcome.started > restartedAt);
    expect(after.map(describeUnexpected).filter(Boolean)).toEqual([]);
    // And it stays healthy: one more of each kind, all answered.
    for (const kind of KINDS) {
      const outcome = await fire(kind);
      expect(
        succeeded(outcome),
        `${kind}: ${outcome.response?.status} ${outcome.response?.text.slice(0, 200)}`,
      ).toBe(true);
    }
    expect((await client.get('/readyz')).status).toBe(200);
  });

  it('leaves no partial documents and loses no acknowledged publish', async () => {
    const { db } = app;
    const isDate = (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime());
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const sourceRecordProblem = (doc: Record<string, unknown>) =>
      typeof doc.code === 'string' &&
      typeof doc.source === 'string' &&
      doc.hash === sha(doc.source) &&
      isDate(doc.when) &&
      isDate(doc.lastAccessed) &&
      typeof doc.hits === 'number' &&
      doc.hits >= 1
        ? undefined
        : JSON.stringify(doc);

    // A claim whose record could not be written is given back once the database is reachable
    // again (in the background): allow it a few seconds before reading the final state.
    const claimsWithoutRecord = async () => {
      const claims = await db.codes.find().toArray();
      const orphans = [];
      for (const claim of claims) {
        const records = {
          kidlisp: db.kidlisp,
          piece: db.pieces,
          painting: db.paintings,
          tape: db.tapes,
        }[codeKindOf(claim) as SharedKind] as typeof db.pieces;
        if (!(await records.findOne({ code: claim._id }))) orphans.push(claim);
      }
      return orphans;
    };
    const settleBy = performance.now() + 5_000;
    while ((await claimsWithoutRecord()).length > 0 && performance.now() < settleBy)
      await sleep(200);

    const [kidlisp, clocks, pieces, paintings, tapes, codes] = await Promise.all([
      db.kidlisp.find().toArray(),
      db.clocks.find().toArray(),
      db.pieces.find().toArray(),
      db.paintings.find().toArray(),
      db.tapes.find().toArray(),
      db.codes.find().toArray(),
    ]);
    expect(kidlisp.map((doc) => sourceRecordProblem(doc as never)).filter(Boolean)).toEqual([]);
    expect(clocks.map((doc) => sourceRecordProblem(doc as never)).filter(Boolean)).toEqual([]);
    const pieceProblems = pieces.filter((doc) =>
      doc.ext !== undefined
        ? !(typeof doc.code === 'string' && typeof doc.slug === 'string' && isDate(doc.when))
        : sourceRecordProblem(doc as never) !== undefined ||
          typeof doc.slug !== 'string' ||
          typeof doc.bucket !== 'string' ||
          typeof doc.anonymous !== 'boolean',
    );
    expect(pieceProblems).toEqual([]);
    expect(
      paintings.filter(
        (doc) =>
          !(typeof doc.code === 'string' && typeof doc.slug === 'string' && isDate(doc.when)),
      ),
    ).toEqual([]);
    expect(
      tapes.filter(
        (doc) =>
          !(
            typeof doc.code === 'string' &&
            typeof doc.slug === 'string' &&
            ['zip', 'mp4'].includes(doc.kind) &&
            isDate(doc.when)
          ),
      ),
    ).toEqual([]);

    // The shared namespace: every claimed code has its record, every record its claim.
    const recordCodes = {
      kidlisp: new Set(kidlisp.map((doc) => doc.code)),
      piece: new Set(pieces.map((doc) => doc.code)),
      painting: new Set(paintings.map((doc) => doc.code)),
      tape: new Set(tapes.map((doc) => doc.code)),
    };
    const orphanClaims = codes.filter(
      (claim) => !recordCodes[codeKindOf(claim) as SharedKind]?.has(claim._id),
    );
    expect(orphanClaims, 'codes claimed without a record').toEqual([]);
    const claimed = new Set(codes.map((claim) => claim._id));
    const unclaimed = [...kidlisp, ...pieces, ...paintings, ...tapes]
      .map((doc) => doc.code)
      .filter((code) => !claimed.has(code));
    expect(unclaimed, 'records whose code is not claimed').toEqual([]);

    // Every acknowledged publish survived the restart, with what was sent.
    const byCode = {
      kidlisp: new Map(kidlisp.map((doc) => [doc.code, doc])),
      clock: new Map(clocks.map((doc) => [doc.code, doc])),
      piece: new Map(pieces.map((doc) => [doc.code, doc])),
    };
    let acknowledged = 0;
    const lost: string[] = [];
    for (const outcome of outcomes) {
      const body = outcome.response?.json;
      if (!succeeded(outcome)) continue;
      if (outcome.kind === 'kidlisp' || outcome.kind === 'clock' || outcome.kind === 'piece') {
        expect(outcome.response?.status).toBe(201);
        acknowledged++;
        if (byCode[outcome.kind].get(body.code)?.source !== outcome.sent.source?.trim())
          lost.push(`${outcome.kind} ${body.code}`);
      } else if (outcome.kind === 'graphql') {
        acknowledged++;
        if (byCode.kidlisp.get(body.data.publishKidlisp.code)?.source !== outcome.sent.source)
          lost.push(`graphql ${body.data.publishKidlisp.code}`);
      } else if (outcome.kind === 'media') {
        acknowledged++;
        const collection = outcome.sent.slug?.endsWith('.png') ? paintings : tapes;
        if (!collection.some((doc) => doc.code === body.code && doc.slug === outcome.sent.slug))
          lost.push(`media ${body.code}`);
      }
    }
    expect(acknowledged).toBeGreaterThan(30);
    expect(lost).toEqual([]);

    // A piece whose record was not written leaves no object behind in storage.
    const storageRoot = join(app.dataDir, 'storage');
    const objects = (await readdir(storageRoot, { recursive: true }))
      .map((entry) => relative(storageRoot, join(storageRoot, entry)))
      .filter((key) => key.endsWith('.mjs'));
    const pieceSlugs = new Set(pieces.map((doc) => storageKeyOf(String(doc.slug), 'mjs')));
    expect(objects.filter((key) => !pieceSlugs.has(key))).toEqual([]);
  });

  it('answers 503 (not 500) to the very first requests after the database dies under an idle service', async () => {
    // Idle pooled connections are what the first requests after a crash are written to.
    for (const kind of KINDS) expect(succeeded(await fire(kind)), kind).toBe(true);
    await sleep(100);
    await mongo?.close();
    mongo = undefined;
    const first = await Promise.all(KINDS.map((kind) => fire(kind)));
    expect(first.map(describeUnexpected).filter(Boolean)).toEqual([]);
    expect(
      first.filter((outcome) => !isUnavailable(outcome)).map((outcome) => outcome.kind),
    ).toEqual([]);

    mongo = await startEmbeddedMongo({ port, dataDir });
    const back = performance.now();
    let outcome = await fire('kidlisp');
    while (!succeeded(outcome) && performance.now() - back < RECOVERY_BUDGET_MS)
      outcome = await fire('kidlisp');
    expect(succeeded(outcome)).toBe(true);
    expect(performance.now() - back).toBeLessThan(RECOVERY_BUDGET_MS);
  });
});
