import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { messageText } from './db-seed.js';
import { indexBuildProgress, type RunningService, runCli, startService } from './db-service.js';

/**
 * Backups that restore, and start-up on data whose indexes are not built yet (issue 40):
 *
 * `db-restore.js restore <DATA_DIR> <messages>`: `db export` of a service's data directory
 * (seeded by bench/db-seed.ts), `db import` of the dump into a fresh DATA_DIR, then the service
 * started there: time and peak memory of each, spawn to /readyz, every message back, searches
 * right while the indexes build, and how long they take.
 *
 * `db-restore.js upgrade <DATA_DIR> <messages>`: the service started on a data directory
 * written without the trigram index (`db-seed.ts ... --no-trigram`): the same start-up figures.
 */
const SEARCH_EVERY_MS = 5_000;

/** A term exactly one message holds (db-seed.ts's texts), and that message's text. */
function rareTerm(messages: number, k: number): { term: string; text: string } {
  const i = Math.floor(((k * 7919 + 12_345) % messages) / 10) * 10 + 3;
  const text = messageText(i);
  return { term: text.slice(text.indexOf('message')), text };
}

type Started = {
  readyMs: number;
  messagesBack: number;
  searches: number;
  wrongSearches: number;
  searchStatuses: Record<string, number>;
  searchP50Ms: number;
  buildMs: number;
  /** One more search once the builds are done: its status, time, and whether it found the message. */
  afterBuildStatus: number;
  afterBuildMs: number;
  afterBuildRight: boolean;
};

/** A search for a term one message holds: its status, time, and whether a 200 found just it. */
async function searchOnce(url: string, messages: number, k: number) {
  const { term, text } = rareTerm(messages, k);
  const started = performance.now();
  const response = await fetch(
    `${url}/api/chat-messages?search=${encodeURIComponent(term)}&limit=50`,
  );
  const ms = performance.now() - started;
  const body = (await response.json()) as { messages?: Array<{ text: string }> };
  const found = body.messages?.length === 1 && body.messages[0]?.text === text;
  return { status: response.status, ms, wrong: response.status === 200 && !found, found };
}

/** Searches while the indexes build, each checked; how long the builds took; one search after. */
async function watchStart(service: RunningService, messages: number): Promise<Started> {
  process.stderr.write(`ready in ${Math.round(service.readyMs)} ms\n`);
  const client = await new MongoClient(service.databaseUri).connect();
  const messagesBack = await client.db('aesthetic').collection('chat-system').countDocuments();
  await client.close();
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let wrong = 0;
  let k = 0;
  for (; ; k++) {
    const building = Object.keys(await indexBuildProgress(service.url)).length > 0;
    if (!building && k > 0) break;
    const search = await searchOnce(service.url, messages, k);
    times.push(search.ms);
    statuses[search.status] = (statuses[search.status] ?? 0) + 1;
    if (search.wrong) wrong++;
    await new Promise((resolve) => setTimeout(resolve, SEARCH_EVERY_MS));
  }
  // From the spawn: the builds start with the service.
  const buildMs = performance.now() - service.startedAt;
  const after = await searchOnce(service.url, messages, k);
  times.sort((a, b) => a - b);
  return {
    readyMs: service.readyMs,
    messagesBack,
    searches: times.length,
    wrongSearches: wrong,
    searchStatuses: statuses,
    searchP50Ms: times[Math.floor(times.length / 2)] ?? 0,
    buildMs,
    afterBuildStatus: after.status,
    afterBuildMs: after.ms,
    afterBuildRight: after.found,
  };
}

async function restore(dataDir: string, messages: number): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'db-restore-'));
  try {
    const dump = join(work, 'dump');
    const exported = await runCli(dataDir, ['db', 'export', '--out', dump]);
    const fresh = join(work, 'data');
    const imported = await runCli(fresh, ['db', 'import', dump]);
    const emptyMs = await emptyReadyMs();
    const service = await startService(fresh);
    try {
      const started = await watchStart(service, messages);
      report('restore', messages, {
        emptyReadyMs: emptyMs,
        exportMs: exported.ms,
        exportPeakMiB: exported.peakMiB,
        importMs: imported.ms,
        importPeakMiB: imported.peakMiB,
        ...started,
      });
    } finally {
      await service.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function upgrade(dataDir: string, messages: number): Promise<void> {
  const emptyMs = await emptyReadyMs();
  const service = await startService(dataDir);
  try {
    const started = await watchStart(service, messages);
    report('upgrade', messages, { emptyReadyMs: emptyMs, ...started });
  } finally {
    await service.stop();
  }
}

/** Spawn to /readyz on an empty DATA_DIR: what start-up costs on this machine now, data aside. */
async function emptyReadyMs(): Promise<number> {
  const empty = await mkdtemp(join(tmpdir(), 'db-restore-empty-'));
  try {
    const service = await startService(empty);
    await service.stop();
    return service.readyMs;
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

function report(kind: string, messages: number, figures: Record<string, unknown>): void {
  const rounded = Object.fromEntries(
    Object.entries(figures).map(([name, value]) => [
      name,
      typeof value === 'number' ? Math.round(value) : value,
    ]),
  );
  process.stdout.write(`${JSON.stringify({ kind, messages, ...rounded })}\n`);
}

const [mode, dir, count] = process.argv.slice(2);
if ((mode !== 'restore' && mode !== 'upgrade') || !dir || !count)
  throw new Error('usage: db-restore.js restore|upgrade <DATA_DIR> <messages>');
await (mode === 'restore' ? restore : upgrade)(dir, Number(count));
