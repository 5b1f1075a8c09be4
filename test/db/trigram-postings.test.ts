import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON } from 'bson';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardProbe } from '../../src/db/embedded/forward-probe.js';
import { Index } from '../../src/db/embedded/indexes.js';
import { encodeValue } from '../../src/db/embedded/keys.js';
import { Tables } from '../../src/db/embedded/tables.js';
import type { TrigramPostings } from '../../src/db/embedded/trigram-postings.js';
import { Postings } from '../../src/db/embedded/trigram-search.js';

// Property: whatever documents are written, rewritten and removed, folded from the pending
// list or added by an index build's batches, the postings of each trigram are exactly the
// documents holding it, in `_id` order either way, counted exactly. Tiny blocks and a tiny
// pending list so that blocks split, empty and change their first key, and merges happen.
// With the collection's documents at hand (as the server runs it), new documents after the
// mark are read from there (src/db/embedded/unfiled-documents.ts); without, every document
// goes through the pending list.
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FC_RUNS ?? 60);

const TRIGRAMS = ['abc', 'bcd', 'xyz', '日本語', '😀ab', 'a\0b', 'ſk '];
const DOCS = 24;

const writeFields = {
  kind: fc.constant('write' as const),
  doc: fc.nat(DOCS - 1),
  trigrams: fc.subarray(TRIGRAMS),
};
const write = fc.record(writeFields);
const op = fc.oneof(
  // unseen: no search reads the index after it (see 'fold').
  { weight: 6, arbitrary: fc.record({ ...writeFields, unseen: fc.boolean() }) },
  // Several writes in one transaction (an insertMany): new documents wait for its end.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      writes: fc.array(write, { maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('remove' as const), doc: fc.nat(DOCS - 1) }),
  },
  // The background folds the pending documents with the lowest `_id`s, a slice at a time
  // (one list, a few, or the rest of the pass); unseen: no search reads the pending list after
  // it (the writer keeps no view for readers then, and makes one anew when a search comes,
  // maybe part-way through a fold).
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fold' as const),
      most: fc.constantFrom(1, 4, 40, 1000),
      unseen: fc.boolean(),
    }),
  },
  // A write that fails part-way: nothing of it stays, and the store loads its catalog
  // objects anew (./src/db/embedded/store.ts), so a fresh writer takes over the table.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('failed' as const),
      writes: fc.array(write, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('build' as const),
      docs: fc.uniqueArray(fc.nat(DOCS - 1), { maxLength: 8 }),
    }),
  },
);

let dir: string;
let tables: Tables;
let table = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trigram-postings-'));
  tables = new Tables(dir);
});
afterAll(async () => {
  await tables.env.close();
  await rm(dir, { recursive: true, force: true });
});

const idKey = (doc: number) => encodeValue(doc);
const keysOf = (trigrams: readonly string[]) =>
  trigrams.map((trigram) => ({ bytes: Buffer.from(trigram), values: [trigram] }));

describe('trigram posting lists', () => {
  it('hold exactly the documents holding each trigram, through writes, merges and builds', () => {
    fc.assert(
      fc.property(
        fc.record({
          built: fc.uniqueArray(fc.nat(DOCS - 1)),
          ops: fc.array(op, { maxLength: 60 }),
        }),
        fc.constantFrom(1, 2, 3),
        fc.constantFrom(1, 2, 5),
        fc.boolean(),
        ({ built, ops }, block, pendingDocs, withDocs) => {
          const meta = {
            spec: { v: 2 as const, key: { text: 'trigram' as const }, name: 'text_trigram' },
            table: ++table,
            multikey: false,
          };
          const sizes = { block, pendingDocs, directFold: 3 };
          const docs = withDocs ? tables.docs(meta.table) : undefined;
          const open = () => new Index(meta, tables.index(meta.table), sizes, docs);
          let index = open();
          // A writer that takes over part-way through a fold counts the postings it had filed
          // twice (in their blocks and in the pending list) until they are folded again.
          let replaced = false;
          const model = new Map<number, string[]>();
          const holding = (trigram: string) =>
            [...model.entries()]
              .filter(([, trigrams]) => trigrams.includes(trigram))
              .map(([doc]) => idKey(doc))
              .sort(Buffer.compare);
          // What the collection does: each index is told of the change, then the document stored.
          const store = (doc: number, trigrams: string[]) => {
            const before = model.get(doc);
            const key = idKey(doc);
            if (before || !docs || !index.filesLater(key))
              index.write(keysOf(before ?? []), keysOf(trigrams), key);
            docs?.putSync(key, Buffer.from(BSON.serialize({ _id: doc, text: trigrams })));
          };
          // The mark starts after the last document built: built ones in the lower half leave
          // room for new documents after it, before and after the newest.
          const initial = built
            .filter((doc) => !withDocs || doc < DOCS / 2)
            .map((doc, i) => ({ doc, trigrams: TRIGRAMS.slice(i % 4) }));
          for (const { doc, trigrams } of initial) model.set(doc, trigrams);
          tables.write(() => {
            for (const { doc, trigrams } of initial)
              docs?.putSync(idKey(doc), Buffer.from(BSON.serialize({ _id: doc, text: trigrams })));
            index.postings?.addDocuments(
              initial.map(({ doc, trigrams }) => ({ idKey: idKey(doc), trigrams })),
            );
          });
          for (const step of ops) {
            if (step.kind === 'failed') {
              const failure = new Error('the write failed');
              expect(() =>
                tables.write(() => {
                  for (const one of step.writes) store(one.doc, one.trigrams);
                  throw failure;
                }),
              ).toThrow(failure);
              index = open();
              replaced = true;
            }
            tables.write(() => {
              const apply = (one: { doc: number; trigrams: string[] }) => {
                store(one.doc, one.trigrams);
                model.set(one.doc, one.trigrams);
              };
              if (step.kind === 'failed') return;
              if (step.kind === 'merge') index.postings?.merge();
              else if (step.kind === 'remove') {
                const before = model.get(step.doc);
                if (!before) return;
                index.write(keysOf(before), [], idKey(step.doc), true);
                docs?.removeSync(idKey(step.doc));
                model.delete(step.doc);
              } else if (step.kind === 'fold') index.postings?.foldSome(step.most);
              else if (step.kind === 'write') apply(step);
              else if (step.kind === 'batch') {
                step.writes.forEach(apply);
                // A search inside the same write sees what it inserted.
                const [first] = TRIGRAMS as [string];
                expect([...new Postings(index).ids(first, false)]).toEqual(holding(first));
              } else {
                // A build's batch reaches documents whose entries are already there: no change.
                const batch = step.docs.filter((doc) => model.has(doc));
                index.postings?.addDocuments(
                  batch.map((doc) => ({ idKey: idKey(doc), trigrams: model.get(doc) ?? [] })),
                );
              }
            });
            // A writer made now (a restart) counts the same pending documents.
            const restarted = open();
            expect(restarted.postings?.waitingDocs()).toBe(index.postings?.waitingDocs());
            if ((step.kind === 'fold' || step.kind === 'write') && step.unseen) {
              for (const trigram of TRIGRAMS)
                expect([...new Postings(restarted).ids(trigram, false)]).toEqual(holding(trigram));
              continue;
            }
            const postings = new Postings(index);
            for (const trigram of TRIGRAMS) {
              expect([...new Postings(restarted).ids(trigram, false)]).toEqual(holding(trigram));
              const held = holding(trigram);
              expect([...postings.ids(trigram, false)]).toEqual(held);
              expect([...postings.ids(trigram, true)]).toEqual([...held].reverse());
              if (replaced) expect(postings.count(trigram)).toBeGreaterThanOrEqual(held.length);
              else expect(postings.count(trigram)).toBe(held.length);
              // Probed in `_id` order and in its reverse (a newest-first walk of a sort index).
              const backwards = new Postings(index);
              for (let doc = 0; doc < DOCS; doc++)
                for (const [probe, at] of [
                  [postings, doc],
                  [backwards, DOCS - 1 - doc],
                ] as const)
                  expect(probe.has(trigram, idKey(at))).toBe(
                    model.get(at)?.includes(trigram) ?? false,
                  );
              // Probed in `_id` order by a search's other lists, each read block after block,
              // sought block by block, or sought once or twice and then read block after block
              // from there (./forward-probe.ts), with every key, every other key, the later half.
              const lists = index.postings as TrigramPostings;
              const waiting = lists.pending().byTrigram.get(trigram) ?? [];
              for (const walkAfter of [0, 1, 2, Number.POSITIVE_INFINITY])
                for (const probed of [
                  () => true,
                  (d: number) => d % 2 === 1,
                  (d: number) => d >= DOCS / 2,
                ]) {
                  const probe = new ForwardProbe(lists, trigram, waiting, walkAfter);
                  for (let doc = 0; doc < DOCS; doc++) {
                    if (!probed(doc)) continue;
                    const key = idKey(doc);
                    expect(probe.has(key, 0, key.length)).toBe(
                      model.get(doc)?.includes(trigram) ?? false,
                    );
                  }
                  probe.close();
                }
            }
            // A search's candidates in `_id` order: the first list's keys, each probed for the others.
            for (const all of [
              TRIGRAMS.slice(0, 2),
              TRIGRAMS.slice(1, 4),
              [TRIGRAMS[4], TRIGRAMS[0]],
            ]) {
              const query = { all: all as string[], either: [] };
              const both = all.map((trigram) =>
                holding(trigram as string).map((key) => key.toString('hex')),
              );
              const expected = (both[0] as string[]).filter((key) =>
                both.every((keys) => keys.includes(key)),
              );
              const found = [...postings.candidates(query, false, () => {})].map((key) =>
                key.toString('hex'),
              );
              expect(found).toEqual(expected);
            }
          }
        },
      ),
      {
        seed: SEED,
        numRuns: RUNS,
        examples: [
          // A fold cut short by a failed write, then the document rewritten without the
          // trigram the fold had already filed (it was left in the blocks).
          [
            {
              built: [],
              ops: [
                { kind: 'write', doc: 1, trigrams: ['\u{1F600}ab', '\u017Fk '], unseen: false },
                { kind: 'fold', most: 1, unseen: false },
                { kind: 'failed', writes: [{ kind: 'write', doc: 0, trigrams: [] }] },
                { kind: 'write', doc: 1, trigrams: [], unseen: false },
              ],
            },
            1,
            1,
            false,
          ],
          // A document inserted after the mark with no search after it, then the pass ends
          // (the mark moves): the next search still files it in the view it kept.
          [
            {
              built: [],
              ops: [
                { kind: 'write', doc: 0, trigrams: ['日本語', '\u{1F600}ab'], unseen: false },
                { kind: 'fold', most: 1, unseen: false },
                { kind: 'write', doc: 1, trigrams: ['\u017Fk '], unseen: true },
                { kind: 'fold', most: 1, unseen: false },
              ],
            },
            1,
            1,
            true,
          ],
          // A fold under way filed a trigram of a document after the mark, which is then
          // rewritten with the same trigrams.
          [
            {
              built: [0],
              ops: [
                { kind: 'batch', writes: [{ kind: 'write', doc: 19, trigrams: ['a\0b'] }] },
                { kind: 'fold', most: 1, unseen: false },
                { kind: 'write', doc: 19, trigrams: ['a\0b'], unseen: false },
              ],
            },
            1,
            1,
            true,
          ],
          // A fold cut short filed a trigram of a document after the mark; the document then
          // loses it.
          [
            {
              built: [],
              ops: [
                { kind: 'write', doc: 0, trigrams: ['a\0b', '\u017Fk '], unseen: false },
                { kind: 'fold', most: 1, unseen: false },
                { kind: 'failed', writes: [{ kind: 'write', doc: 0, trigrams: [] }] },
                { kind: 'write', doc: 0, trigrams: [], unseen: false },
              ],
            },
            1,
            1,
            true,
          ],
          [
            {
              built: [0],
              ops: [
                { kind: 'write', doc: 1, trigrams: [], unseen: false },
                { kind: 'fold', most: 1, unseen: false },
                { kind: 'fold', most: 1000, unseen: true },
                { kind: 'batch', writes: [{ kind: 'write', doc: 2, trigrams: ['\u017Fk '] }] },
              ],
            },
            1,
            1,
            true,
          ],
        ],
      },
    );
  }, 120_000);
});

describe('a trigram index of the layout before posting lists', () => {
  it('is known as outdated and, restarted, is empty and in the current layout', () => {
    const meta = {
      spec: { v: 2 as const, key: { text: 'trigram' as const }, name: 'text_trigram' },
      table: ++table,
      multikey: false,
    };
    const entries = tables.index(meta.table);
    // The earlier layout: a key per trigram and document, no value.
    tables.write(() =>
      entries.putSync(Buffer.concat([Buffer.from('abc'), idKey(1)]), Buffer.alloc(0)),
    );
    const old = new Index({ ...meta }, entries);
    expect(old.outdated).toBe(true);
    tables.write(() => old.restart());
    expect(old.outdated).toBe(false);
    expect(entries.getKeysCount()).toBe(0);
    tables.write(() => old.write([], keysOf(['abc']), idKey(2)));
    expect([...new Postings(old).ids('abc', false)]).toEqual([idKey(2)]);
    // A new one starts in the current layout.
    expect(new Index({ ...meta, table: ++table }, tables.index(table)).outdated).toBe(false);
  });
});
