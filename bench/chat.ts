import { mkdtemp, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Document, ObjectId } from 'mongodb';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import type { HeartRecord } from '../src/db/collections.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';
import { type BenchRow, type LoadOptions, type LoadResult, listen, load, row } from './report.js';

export const MESSAGES_PER_CHANNEL = 200_000;
const HISTORY = `${(MESSAGES_PER_CHANNEL / 1000).toLocaleString('en')}k messages a channel`;
const ACCOUNTS = 200;
const PAGE = 50;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
/** Later than every message: each distinct `before` is a cache miss that reads the same latest page. */
const FUTURE = Date.parse('2030-01-01T00:00:00.000Z');

/** A history of a real community's size (bench:db grows one to a million through the driver). */
async function seed(db: Database): Promise<void> {
  const BATCH = 10_000;
  for (const channel of ['system', 'clock'] as const) {
    for (let start = 0; start < MESSAGES_PER_CHANNEL; start += BATCH) {
      const hearts: HeartRecord[] = [];
      const docs = Array.from({ length: BATCH }, (_, j) => {
        const i = start + j;
        const _id = new ObjectId();
        for (let h = 0; h < i % 4; h++)
          hearts.push({
            user: `fan-${h}`,
            type: `chat-${channel}`,
            for: _id.toHexString(),
            when: new Date(T0),
          });
        return {
          _id,
          user: i % 7 === 0 ? '' : `account-${i % ACCOUNTS}`,
          text: `${channel} message ${i} with some words in it`,
          when: new Date(T0 + i * 1_000),
        };
      });
      await db.chat[channel].insertMany(docs);
      await db.hearts.insertMany(hearts);
    }
  }
  await db.handles.insertMany(
    Array.from({ length: ACCOUNTS * 0.75 }, (_, i) => ({
      _id: `account-${i}`,
      handle: `handle${i}`,
    })),
  );
}

/** The baseline: the same three commands as an uncached system page, with the raw driver and nothing else. */
function rawDriverPage(db: Database): RequestListener {
  return async (req, res) => {
    const before = new Date(
      new URL(req.url ?? '/', 'http://x').searchParams.get('before') ?? FUTURE,
    );
    const rows = await db.chat.system
      .find(
        { deleted: { $ne: true }, when: { $lt: before } },
        { sort: { when: -1, _id: -1 }, limit: PAGE, projection: { user: 1, text: 1, when: 1 } },
      )
      .toArray();
    const ids = rows.map((r) => r._id.toHexString());
    const users = [...new Set(rows.map((r) => r.user).filter((u): u is string => !!u))];
    const [counts, handles] = await Promise.all([
      db.hearts
        .aggregate([
          { $match: { type: { $in: ['chat-system'] }, for: { $in: ids } } },
          { $group: { _id: { type: '$type', for: '$for' }, count: { $sum: 1 } } },
        ])
        .toArray(),
      db.handles.find({ _id: { $in: users } }, { projection: { handle: 1 } }).toArray(),
    ]);
    const heartsOf = new Map(counts.map((c) => [c._id.for as string, c.count as number]));
    const handleOf = new Map(handles.map((h) => [h._id, h.handle]));
    const messages = rows.reverse().map((r) => ({
      id: r._id.toHexString(),
      from: r.user && handleOf.has(r.user) ? `@${handleOf.get(r.user)}` : 'anon',
      text: r.text,
      when: r.when.toISOString(),
      instance: 'system',
      hearts: heartsOf.get(r._id.toHexString()) ?? 0,
    }));
    const body = JSON.stringify({
      instance: 'system',
      count: messages.length,
      messages,
      nextBefore: messages[0]?.when ?? null,
    });
    res
      .writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=120',
      })
      .end(body);
  };
}

/** The baseline of a cached page: node:http answering the same bytes from memory. */
const fixedBody =
  (body: string): RequestListener =>
  (_req, res) => {
    res
      .writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=120',
      })
      .end(body);
  };

let missCounter = 0;
const uniqueBefore = (path: string) => () =>
  `${path}${path.includes('?') ? '&' : '?'}before=${new Date(FUTURE + ++missCounter).toISOString()}`;

export const GRAPHQL_PAGE = JSON.stringify({
  query: `{ chatMessages(last: ${PAGE}) { edges { cursor node { id from text when instance hearts } } pageInfo { hasPreviousPage startCursor } } }`,
});

function check(name: string, result: LoadResult): LoadResult {
  if (result.errors || result.non2xx)
    throw new Error(
      `chat bench ${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`,
    );
  return result;
}

const mean = (results: LoadResult[], pick: (r: LoadResult) => number) =>
  results.reduce((sum, r) => sum + pick(r), 0) / results.length;
const average = (results: LoadResult[]): LoadResult => ({
  requestsPerSec: mean(results, (r) => r.requestsPerSec),
  p99Ms: mean(results, (r) => r.p99Ms),
  errors: 0,
  non2xx: 0,
});

/**
 * Baseline, case, case, baseline, in turns of one second, repeated to fill the time each is given:
 * load drifting on a shared machine weighs on both alike (the shorter the turns, the more so).
 */
export async function compare(
  name: string,
  subject: LoadOptions,
  baseline: LoadOptions,
): Promise<[LoadResult, LoadResult]> {
  const turn = (options: LoadOptions) => ({ ...options, seconds: 1 });
  const cases: LoadResult[] = [];
  const bases: LoadResult[] = [];
  for (let round = 0; round < Math.max(1, Math.round(subject.seconds / 2)); round++) {
    bases.push(check(`${name} baseline`, await load(turn(baseline))));
    cases.push(check(name, await load(turn(subject))));
    cases.push(check(name, await load(turn(subject))));
    bases.push(check(`${name} baseline`, await load(turn(baseline))));
  }
  return [average(cases), average(bases)];
}

/**
 * Chat reads on loopback, each case beside its baseline in the same run:
 * uncached REST (every request a distinct `before`, so a cache miss) against the raw driver,
 * cached REST against node:http serving the same bytes, GraphQL (never cached) against uncached REST.
 */
export async function benchChat(options: { seconds: number }): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-chat-'));
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const service = await startService(config, createLogger('silent'));
  const servers: { close(): Promise<void> }[] = [];
  try {
    await seed(service.services.db);
    const raw = await listen(rawDriverPage(service.services.db));
    servers.push(raw);
    const restPath = `/api/chat-messages?limit=${PAGE}`;
    const ours = (await (
      await fetch(`${service.url}${restPath}&before=${new Date(FUTURE).toISOString()}`)
    ).json()) as Document;
    const theirs = (await (
      await fetch(`${raw.url}/?before=${new Date(FUTURE).toISOString()}`)
    ).json()) as Document;
    if (JSON.stringify(ours) !== JSON.stringify(theirs))
      throw new Error('chat bench: the baseline does not answer the same page');
    const cachedBody = await (await fetch(`${service.url}${restPath}`)).text();
    const bytes = await listen(fixedBody(cachedBody));
    servers.push(bytes);

    const seconds = options.seconds;
    const restMiss: LoadOptions = { url: service.url, seconds, path: uniqueBefore(restPath) };
    const [uncached, rawDriver] = await compare('REST uncached', restMiss, {
      url: raw.url,
      seconds,
      path: uniqueBefore('/'),
    });
    const [cached, sameBytes] = await compare(
      'REST cached',
      { url: `${service.url}${restPath}`, seconds },
      { url: bytes.url, seconds },
    );
    const graphqlPage: LoadOptions = {
      url: `${service.url}/graphql`,
      seconds,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: () => GRAPHQL_PAGE,
    };
    const [graphql, rest] = await compare('GraphQL', graphqlPage, restMiss);
    return [
      row(
        `chat page of ${PAGE} among ${HISTORY}, REST uncached`,
        'raw-driver route',
        uncached,
        rawDriver,
      ),
      row(
        `chat page of ${PAGE} among ${HISTORY}, REST cached`,
        'node:http, same bytes',
        cached,
        sameBytes,
      ),
      row(
        `chat page of ${PAGE} among ${HISTORY}, GraphQL (uncached)`,
        'REST uncached',
        graphql,
        rest,
      ),
    ];
  } finally {
    for (const server of servers) await server.close();
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
