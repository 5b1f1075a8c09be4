import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CommandLog, recordCommands } from '../support/commands.js';
import { createHttpClient, type HttpClient, median } from '../support/http-client.js';

/**
 * Chat search is a literal substring: pathological regular-expression text can neither match
 * everything nor make the database backtrack for seconds. Measured over HTTP, per request,
 * against a few thousand messages, after a warm-up.
 */

const SYSTEM_MESSAGES = 3_000;
const CLOCK_MESSAGES = 1_000;
/** The median must stay under this; any single request under the ceiling (a 2-core CI machine has hiccups). */
const MEDIAN_BUDGET_MS = 50;
const CEILING_MS = 250;

let app: TestApp;
let client: HttpClient;
let commands: CommandLog;

const T0 = Date.UTC(2026, 0, 1);
/** Texts with the metacharacters users type, stored literally, so a literal search must find exactly these. */
const literals = [
  '(a+)+$',
  '.*',
  'C:\\Users\\ada',
  '[x]{2}',
  'price: $5^2',
  'a|b',
  '✨ sparkle ✨',
  'naïve café',
];

beforeAll(async () => {
  app = await startTestApp({}, { monitorCommands: true });
  client = createHttpClient(app.url, { maxSockets: 4 });
  commands = recordCommands(app.db.client);
  const words = [
    'hello',
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab',
    'paint',
    'clock',
    'melody',
    'wipe blue',
    'ünïcödé',
    '日本語のテキスト',
    'a'.repeat(120),
  ];
  const system = Array.from({ length: SYSTEM_MESSAGES }, (_, i) => ({
    _id: new ObjectId(),
    user: `acct-${i % 50}`,
    text: `${words[i % words.length]} ${i} ${'a'.repeat(i % 40)}`,
    when: new Date(T0 + i * 1_000),
  }));
  literals.forEach((text, i) => {
    system[100 + i * 7] = {
      ...(system[100 + i * 7] as (typeof system)[number]),
      text: `look: ${text} here`,
    };
  });
  const clock = Array.from({ length: CLOCK_MESSAGES }, (_, i) => ({
    _id: new ObjectId(),
    text: `${words[i % words.length]} tick ${i}`,
    when: new Date(T0 + i * 3_000 + 500),
  }));
  await app.db.chat.system.insertMany(system);
  await app.db.chat.clock.insertMany(clock);
  await app.db.handles.insertMany(
    Array.from({ length: 50 }, (_, i) => ({ _id: `acct-${i}`, handle: `user${i}` })),
  );
});

afterAll(async () => {
  commands?.stop();
  client?.close();
  await app?.close();
});

const pathological = [
  '(a+)+$'.repeat(33),
  '.*'.repeat(100),
  '(.*a){20}',
  '(a|aa)+$',
  '(a|a?)+b',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  `${'a'.repeat(40)}!`,
  '\\'.repeat(200),
  '\\Q.*\\E',
  '[^]*'.repeat(40),
  '(?:(?:a*)*)*b',
  '✨'.repeat(100),
  '\u0301'.repeat(150),
  'ﷺ𝕏🏳️‍🌈'.repeat(10),
  '$where',
  '%00\u0000',
  '(?i)(?=a)*',
  '\\u0061+\\1',
  '((((((((((a))))))))))\\10',
  `${' '.repeat(5)}(x+x+)+y${' '.repeat(5)}`,
];

let nextBefore = 0;
/** A `before` no other request used, so the 2-minute cache never answers for the database. */
const uncached = () => new Date(Date.UTC(2031, 0, 1) + ++nextBefore).toISOString();

const search = (text: string, instance: string, param = 'search') =>
  client.get(
    `/api/chat-messages?instance=${instance}&limit=100&before=${uncached()}&${param}=${encodeURIComponent(text)}`,
  );

/** The text as a regular expression that matches only itself: every metacharacter behind a backslash (written here, not imported). */
const literalPattern = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, (char) => `\\${char}`);

/** Every `{ $regex, $options }` anywhere in the commands sent (a find's filter, an aggregation's `$match`, a `$unionWith` pipeline). */
function regexConditions(value: unknown, found: { $regex: unknown; $options: unknown }[] = []) {
  if (Array.isArray(value)) for (const item of value) regexConditions(item, found);
  else if (
    value &&
    typeof value === 'object' &&
    !(value instanceof ObjectId) &&
    !(value instanceof Date)
  ) {
    const record = value as Record<string, unknown>;
    if ('$regex' in record) found.push({ $regex: record.$regex, $options: record.$options });
    for (const [key, inner] of Object.entries(record))
      if (key !== '$regex') regexConditions(inner, found);
  }
  return found;
}

describe('pathological search strings', () => {
  it('are searched literally: metacharacters find the messages that contain them, and only those', async () => {
    for (const text of literals) {
      const response = await search(text, 'system');
      expect(response.status, text).toBe(200);
      expect(
        response.json.messages.map((message: { text: string }) => message.text),
        text,
      ).toEqual([`look: ${text} here`]);
    }
    // `.*` as a regex would match every message; as text it matches the one message that has it.
    expect((await search('.*', 'all')).json.count).toBe(1);
  });

  it(`answer in under ${MEDIAN_BUDGET_MS} ms at the median over ${SYSTEM_MESSAGES + CLOCK_MESSAGES} messages`, async () => {
    // Warm-up: JIT, connection pool, first scans.
    for (let i = 0; i < 10; i++) await search(`warm ${i}`, i % 2 ? 'all' : 'system');

    const timings: { text: string; instance: string; ms: number }[] = [];
    for (const instance of ['system', 'all', 'clock']) {
      for (const text of pathological) {
        const label = `${instance} ${JSON.stringify(text).slice(0, 60)}`;
        commands.clear();
        const response = await search(text, instance, timings.length % 2 ? 'q' : 'search');
        expect(response.status, `${label}: ${response.text.slice(0, 200)}`).toBe(200);
        const term = text.trim().slice(0, 200);
        expect(response.json.search).toBe(term);
        timings.push({ text, instance, ms: response.ms });
        // What reached the database is the escaped literal of the term, case-insensitive, once per channel read.
        const conditions = regexConditions(commands.commands().map((entry) => entry.command));
        expect(conditions, label).toHaveLength(instance === 'all' ? 2 : 1);
        for (const condition of conditions)
          expect(condition, label).toEqual({ $regex: literalPattern(term), $options: 'i' });
        expect(new RegExp(`^(?:${literalPattern(term)})$`, 'i').test(term), label).toBe(true);
      }
    }
    const ms = timings.map((timing) => timing.ms);
    const slowest = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
    expect(median(ms), `median of ${ms.map(Math.round).join(', ')}`).toBeLessThan(MEDIAN_BUDGET_MS);
    expect(
      slowest.ms,
      `slowest: ${slowest.instance} ${JSON.stringify(slowest.text).slice(0, 60)}`,
    ).toBeLessThan(CEILING_MS);
  });

  it('refuses a search longer than 200 characters instead of running it', async () => {
    const response = await search('(a+)+$'.repeat(40), 'system');
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'SEARCH_TOO_LONG' });
  });
});
