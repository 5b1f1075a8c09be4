import fc from 'fast-check';
import { type Collection, type Document, MongoServerError, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../src/operations/chat/read-window.js';
import { embeddedClientPerFile } from '../support/embedded-client.js';

// Property: whatever the messages and whatever the search (the chat's escaped substring with
// `i`, or any regular expression), a `$regex` through the trigram index answers exactly what
// a collection scan (`hint: {$natural: 1}`) answers, in the same order, sorted or not.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FC_RUNS ?? 150);

const connected = embeddedClientPerFile();

/**
 * Characters where folding is tricky: letters whose cases are not one-to-one (ſ, K, İ, ǅ, ß),
 * accents, CJK, emoji and other astral characters (two UTF-16 units), regex syntax, spaces.
 */
const CHARS = [
  ...'abcsABCSkKiIeéÉ',
  ...'ſKİıǅǆǄßẞΣσς',
  ...'日本語中文',
  '😀',
  '😃',
  '𐐀',
  '𐐨',
  ...' .-*()[]|\\\n',
];
const char = fc.constantFrom(...CHARS);
const text = fc.array(char, { maxLength: 16 }).map((chars) => chars.join(''));
const value = fc.oneof(
  { weight: 8, arbitrary: text },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, 42, null) },
);
const messages = fc.array(value, { minLength: 1, maxLength: 40 });

/** A regular expression from the syntax the trigram reader handles and some it gives up on. */
const { pattern } = fc.letrec((tie) => ({
  atom: fc.oneof(
    { weight: 10, arbitrary: char.map((c) => escapeRegExp(c)) },
    {
      weight: 6,
      arbitrary: fc
        .array(char, { minLength: 3, maxLength: 5 })
        .map((chars) => escapeRegExp(chars.join(''))),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '.',
        '\\d',
        '\\w',
        '\\s',
        '\\b',
        '[aA]',
        '[sS]',
        '[ſS]',
        '[kK]',
        '[^a]',
        '[a-c]',
        '[日本]',
        '\\u00e9',
        '\\x41',
        '\\uD83D\\uDE00',
        '\\uD83D',
        '\\uDE00',
        '\\cJ',
        '\\n',
        '\\-',
      ),
    },
    { weight: 2, arbitrary: tie('pattern').map((p) => `(${p})`) },
    { weight: 1, arbitrary: tie('pattern').map((p) => `(?:${p})`) },
  ),
  piece: fc
    .tuple(
      tie('atom') as fc.Arbitrary<string>,
      fc.constantFrom('', '', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,2}', '+?', '{1,}'),
    )
    .map(([atom, quantifier]) => atom + quantifier),
  sequence: fc.array(tie('piece') as fc.Arbitrary<string>, { maxLength: 6 }).map((p) => p.join('')),
  pattern: fc
    .array(tie('sequence') as fc.Arbitrary<string>, { minLength: 1, maxLength: 3 })
    .map((branches) => branches.join('|')),
}));
const anchored = fc
  .tuple(fc.boolean(), pattern as fc.Arbitrary<string>, fc.boolean())
  .map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`)
  .filter((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  });
const options = fc.constantFrom('', 'i', 'i', 'm', 's', 'im');

/** Characters some case-insensitive match may take for one another (and some it may not). */
const LOOKALIKES = ['sSſ', 'kKK', 'iIİı', 'ǅǆǄ', 'ßẞ', 'ΣσςS', 'eEéÉ', 'aA', '𐐀𐐨', '😀😃'];
const lookalikes = (c: string) => [...(LOOKALIKES.find((group) => group.includes(c)) ?? c)];

const strings = (values: unknown[]) =>
  values.flat().filter((v): v is string => typeof v === 'string');

/** A piece of one of the messages (so that some searches match), or any text. */
const excerpt = (values: unknown[]) =>
  fc.oneof(
    text,
    fc
      .tuple(fc.constantFrom(...strings(values), ''), fc.nat(), fc.nat())
      .map(([whole, a, b]) => {
        const chars = [...whole];
        const [from, to] = [a % (chars.length + 1), b % (chars.length + 1)].sort((x, y) => x - y);
        return chars.slice(from, to);
      })
      .chain((chars) => fc.tuple(...chars.map((c) => fc.constantFrom(...lookalikes(c)))))
      .map((chars) => chars.join('')),
  );

/** One character of an excerpt as a pattern: itself, a look-alike, a class of both, `.`, `\\u`. */
const unitEscape = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
const patternChar = (c: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...lookalikes(c)).map(escapeRegExp) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...lookalikes(c)), fc.constantFrom(...lookalikes(c)))
        .map(([x, y]) => `[${escapeRegExp(x + y)}]`),
    },
    {
      weight: 1,
      // An astral character's units escaped, or only its second one (a lone surrogate).
      arbitrary: fc.constantFrom(
        '.',
        Array.from({ length: c.length }, (_, i) => unitEscape(c.charCodeAt(i))).join(''),
        unitEscape(c.charCodeAt(c.length - 1)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('+', '?', '*', '{1,2}').map((q) => `${escapeRegExp(c)}${q}`),
    },
  );

/** A regular expression made from an excerpt of the messages, maybe one branch of two. */
const derived = (values: unknown[]) =>
  fc
    .tuple(excerpt(values), fc.option(pattern as fc.Arbitrary<string>), fc.boolean())
    .chain(([piece, other, anchor]) =>
      fc
        .tuple(...[...piece].map(patternChar))
        .map(
          (parts) => `${anchor ? '^' : ''}${parts.join('')}${other === null ? '' : `|${other}`}`,
        ),
    );

/** A search as the chat sends it: an excerpt or any text, escaped, with `i`. */
const search = (values: unknown[]) => excerpt(values);

const shapes: Document[] = [
  {},
  { sort: { _id: -1 }, limit: 5 },
  { sort: { _id: 1 }, skip: 2 },
  { sort: { when: -1, _id: -1 }, limit: 7 },
];

let trigramPlans = 0;
/** Plans reading the union of several branches' postings (a `$or`). */
let unionPlans = 0;

async function sameAsScan(c: Collection, filter: Document, shape: Document): Promise<void> {
  const explained = await c.find(filter, shape).explain('executionStats');
  const winning = JSON.stringify(explained.queryPlanner.winningPlan);
  if (winning.includes('trigram')) trigramPlans++;
  if (winning.includes('"stage":"OR"')) unionPlans++;
  const indexed = await c.find(filter, shape).toArray();
  const scanned = await c.find(filter, { ...shape, hint: { $natural: 1 } }).toArray();
  expect(indexed).toEqual(scanned);
}

/** The messages under `text`, and maybe others under `title` (a second trigram index). */
async function loaded(values: unknown[], titles: unknown[] = []): Promise<Collection> {
  const c = connected().db('property').collection(`m${new ObjectId().toHexString()}`);
  await c.createIndex({ when: -1, _id: -1 });
  await c.createIndex({ text: 'trigram' } as Document);
  if (titles.length > 0) await c.createIndex({ title: 'trigram' } as Document);
  await c.insertMany(
    values.map((v, i) => ({
      ...(v !== undefined && { text: v }),
      ...(titles[i] !== undefined && { title: titles[i] }),
      when: new Date(Date.UTC(2026, 0, 1, 0, 0, (i * 7919) % 97)),
      n: i,
    })),
  );
  return c;
}

/** Whether a scan refuses the filter (a construct the linear engine cannot run): then the index refuses it alike. */
async function refusedAlike(c: Collection, filter: Document): Promise<boolean> {
  const refused = await c
    .find(filter, { hint: { $natural: 1 } })
    .toArray()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!refused) return false;
  expect(refused).toBeInstanceOf(MongoServerError);
  await expect(c.find(filter).toArray()).rejects.toMatchObject({
    code: (refused as MongoServerError).code,
  });
  return true;
}

/** A regular expression: from the grammar, or made from an excerpt of the values, with any options. */
const anyRegex = (values: unknown[]) =>
  fc.tuple(fc.oneof(anchored, derived(values)), options).map(([$regex, $options]) => ({
    $regex,
    $options,
  }));

describe(`trigram index answers what a scan answers (seed ${SEED}, ${RUNS} runs)`, () => {
  it('for the chat search: an escaped substring, case-insensitive', async () => {
    trigramPlans = 0;
    await fc.assert(
      fc.asyncProperty(
        messages.chain((values) =>
          fc.tuple(fc.constant(values), fc.array(search(values), { minLength: 1, maxLength: 4 })),
        ),
        fc.constantFrom(...shapes),
        async ([values, terms], shape) => {
          const c = await loaded(values);
          for (const term of terms)
            await sameAsScan(c, { text: { $regex: escapeRegExp(term), $options: 'i' } }, shape);
          await c.drop();
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(trigramPlans).toBeGreaterThan(RUNS / 4);
  }, 300_000);

  it('for any regular expression, with any options', async () => {
    trigramPlans = 0;
    await fc.assert(
      fc.asyncProperty(
        messages.chain((values) =>
          fc.tuple(
            fc.constant(values),
            fc.array(fc.tuple(fc.oneof(anchored, derived(values)), options), {
              minLength: 1,
              maxLength: 4,
            }),
          ),
        ),
        fc.constantFrom(...shapes),
        async ([values, regexes], shape) => {
          const c = await loaded(values);
          for (const [source, flags] of regexes) {
            const filter = { text: { $regex: source, $options: flags } };
            if (!(await refusedAlike(c, filter))) await sameAsScan(c, filter, shape);
          }
          await c.drop();
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(trigramPlans).toBeGreaterThan(RUNS / 10);
  }, 300_000);

  it('for a $or of regular expressions over two indexed fields, maybe beside other clauses', async () => {
    unionPlans = 0;
    // Some titles repeat their message, so that a document matches in both fields.
    const twoFields = fc
      .tuple(messages, messages, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
      .map(
        ([texts, others, repeat]) =>
          [texts, texts.map((text, i) => (repeat[i] ? text : others[i]))] as const,
      );
    // Three or more characters of a message, escaped, with `i`: the works search's term.
    const term = (values: unknown[]) =>
      fc
        .tuple(fc.constantFrom(...strings(values), 'no such'), fc.nat(), fc.nat())
        .map(([whole, from, length]) => {
          const chars = [...whole];
          const start = from % Math.max(chars.length - 2, 1);
          return chars.slice(start, start + 3 + (length % 4)).join('');
        })
        .map((piece) => ({ $regex: escapeRegExp(piece), $options: 'i' }));
    // One regex on each field (as the works search asks), or any regexes on either field.
    const branchesOf = (values: unknown[]) =>
      fc.oneof(
        fc.oneof(term(values), anyRegex(values)).map(
          (regex) =>
            [
              ['text', regex],
              ['title', regex],
            ] as const,
        ),
        fc.array(fc.tuple(fc.constantFrom('text', 'title'), anyRegex(values)), {
          minLength: 1,
          maxLength: 3,
        }),
      );
    await fc.assert(
      fc.asyncProperty(
        twoFields.chain(([texts, titles]) =>
          fc.tuple(
            fc.constant(texts),
            fc.constant(titles),
            fc.array(
              fc.tuple(
                branchesOf([...texts, ...titles]),
                fc.constantFrom('alone', 'in $and', 'beside a condition'),
              ),
              { minLength: 1, maxLength: 3 },
            ),
          ),
        ),
        fc.constantFrom(...shapes),
        async ([texts, titles, searches], shape) => {
          const c = await loaded(texts, titles);
          for (const [branches, setting] of searches) {
            const or = { $or: branches.map(([field, regex]) => ({ [field]: regex })) };
            // On a field without an index: another index would read in another (as good) order.
            const early = { n: { $lt: 30 } };
            const filter =
              setting === 'alone'
                ? or
                : setting === 'in $and'
                  ? { $and: [early, or] }
                  : { ...early, ...or };
            if (!(await refusedAlike(c, filter))) await sameAsScan(c, filter, shape);
          }
          await c.drop();
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(unionPlans).toBeGreaterThan(RUNS / 10);
  }, 300_000);
});
