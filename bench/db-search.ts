import type { Collection } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { escapeRegExp } from '../src/operations/chat/read-window.js';
import { startService } from '../src/service.js';

/** p50 / p95 in ms. */
export interface Percentiles {
  p50: number;
  p95: number;
}

export interface SearchLatencies extends RareLatencies {
  newest: Percentiles;
  none: Percentiles;
  noneCommon: Percentiles;
  /** Three searches of a term in 1 of 97 messages at once: the slowest one's ms. */
  hundredthThree: number;
}

/**
 * The rare kinds: a term in one message, and a term in 1 of 97 messages. Warm: p50 / p95 after
 * the warm-up; cold: p50 of the first searches of each kind in the server process.
 */
export interface RareLatencies {
  rare: Percentiles;
  hundredth: Percentiles;
  coldRare: number;
  coldHundredth: number;
}

/** The token message `i` ends with (bench/db.ts, grow): each one in 1 of 97 messages. */
export const hundredthToken = (i: number) => `k${i % 97}q`;

const SAMPLES = 10;
/** The rare kinds: searches of each kind measured cold, then not counted, then measured warm. */
export const RARE_COLD = 10;
export const RARE_WARM_UP = 20;
export const RARE_SAMPLES = 30;

/** `times` runs of `run(i)`, one after another: p50 and p95 of their times. */
async function percentiles(
  run: (i: number) => Promise<unknown>,
  times = SAMPLES,
): Promise<Percentiles> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(times - 1, Math.floor(q * times))] as number;
  return { p50: at(0.5), p95: at(0.95) };
}

let fresh = 0;

/**
 * The chat's search (src/operations/chat/read-window.ts) over messages `system message <i> with
 * some words in it`, each case with a term not asked before: a phrase every message holds
 * (the newest 50 answer), one message's number, a word no message holds, and a phrase whose
 * every trigram each message holds though none holds the phrase.
 */
export async function searchLatencies(chat: Collection, size: number): Promise<SearchLatencies> {
  const search = searcher(chat);
  const casing = (i: number) => (i % 2 ? 'SOME WORDS' : 'Words In');
  const rare = await rareLatencies(chat, size);
  const started = performance.now();
  const ended = await Promise.all(
    [1, 2, 3].map(async (n) => {
      await search(hundredthToken(n * 31 + 7), 50);
      return performance.now();
    }),
  );
  return {
    newest: await percentiles((i) => search(casing(i), 50)),
    ...rare,
    hundredthThree: Math.max(...ended) - started,
    none: await percentiles(() => search(`no such thing ${++fresh}`, 0)),
    noneCommon: await percentiles((i) => search(i % 2 ? 'sage with' : 'SAGE WITH', 0), 3),
  };
}

/** The chat's search, newest first, 50: checks how many rows it found. */
const searcher = (chat: Collection) => async (term: string, expected?: number) => {
  const rows = await chat
    .find(
      { deleted: { $ne: true }, text: { $regex: escapeRegExp(term), $options: 'i' } },
      { sort: { when: -1, _id: -1 }, limit: 50, maxTimeMS: 120_000 },
    )
    .toArray();
  if (expected !== undefined && rows.length !== expected)
    throw new Error(`search ${term}: ${rows.length} rows, not ${expected}`);
};

/**
 * The rare kinds, each with a term not asked before: one message's number, and a token in 1 of
 * 97 messages (upper case every other time). The first RARE_COLD of each kind are measured as
 * they come (cold: the server's code for them not yet compiled), the rest of RARE_WARM_UP are
 * not counted, then `times` of each are measured warm.
 */
export async function rareLatencies(
  chat: Collection,
  size: number,
  times = RARE_SAMPLES,
): Promise<RareLatencies> {
  const search = searcher(chat);
  // Every term of both kinds differs: the messages' numbers are spread over the history in
  // each phase and shifted by the phase, and 13 steps through all 97 tokens before repeating
  // (the first 50 from 6 miss searchLatencies' three at once).
  let phase = 0;
  let tokens = 0;
  const kinds = async (count: number) => {
    phase++;
    const rare = await percentiles(
      (i) => search(`message ${Math.floor(((i + 0.5) * size) / count) + phase} with`, 1),
      count,
    );
    const hundredth = await percentiles((i) => {
      const token = hundredthToken(tokens++ * 13 + 6);
      return search(i % 2 ? token.toUpperCase() : token, 50);
    }, count);
    return { rare, hundredth };
  };
  const cold = await kinds(RARE_COLD);
  await kinds(RARE_WARM_UP - RARE_COLD);
  const warm = await kinds(times);
  return { ...warm, coldRare: cold.rare.p50, coldHundredth: cold.hundredth.p50 };
}

/**
 * Three no-match searches at once through the service's chat route (100 rows asked, the most), on the embedded database
 * under `dataDir` (the service's DATA_DIR) as `npm start` runs it: `status ms` of each.
 */
export async function serviceSearches(dataDir: string, database: string): Promise<string> {
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    MONGODB_DB: database,
    LOG_LEVEL: 'silent',
  });
  const service = await startService(config, createLogger(config.logLevel));
  try {
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const started = performance.now();
        const term = encodeURIComponent(`no such thing ${++fresh}`);
        const response = await fetch(`${service.url}/api/chat-messages?search=${term}&limit=100`);
        await response.arrayBuffer();
        return `${response.status} ${Math.round(performance.now() - started)}`;
      }),
    );
    return answers.join(', ');
  } finally {
    await service.close();
  }
}
