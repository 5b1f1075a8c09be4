import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EJSON } from 'bson';
import { type Collection, type Document, MongoServerError, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { exportDump } from '../../src/db/dump.js';
import { embeddedClientPerFile } from '../support/embedded-client.js';

// The embedded server's trigram index (`{ field: 'trigram' }`): what it accepts, what `explain`
// says a `$regex` examined through it, and that it answers what a collection scan answers.
const connected = embeddedClientPerFile();

async function plan(coll: Collection, filter: Document, options: Document = {}) {
  const explained = await coll.find(filter, options).explain('executionStats');
  const winning = explained.queryPlanner.winningPlan;
  const input = winning.inputStage?.stage === 'FETCH' ? winning.inputStage : winning;
  return {
    stage: input.inputStage?.stage ?? input.stage,
    index: input.inputStage?.indexName,
    sieve: input.trigramSieve?.indexName,
    keys: explained.executionStats.totalKeysExamined,
    docs: explained.executionStats.totalDocsExamined,
    returned: explained.executionStats.nReturned,
  };
}

const scanned = (coll: Collection, filter: Document, options: Document = {}) =>
  coll.find(filter, { ...options, hint: { $natural: 1 } }).toArray();

describe('trigram index', () => {
  it('is created through createIndexes, listed, and refuses options it cannot honour', async () => {
    const c = connected().db('trigram').collection('spec');
    expect(await c.createIndex({ text: 'trigram' } as Document)).toBe('text_trigram');
    const listed = await c.listIndexes().toArray();
    expect(listed.map((ix) => ix.key)).toContainEqual({ text: 'trigram' });
    for (const [key, options] of [
      [{ text: 'trigram', n: 1 }, {}],
      [{ text: 'trigram' }, { unique: true, name: 'u' }],
      [{ text: 'trigram' }, { sparse: true, name: 's' }],
      [{ text: 'trigram' }, { partialFilterExpression: { n: 1 }, name: 'p' }],
    ] as const) {
      const refusal = await c.createIndex(key as Document, options).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(MongoServerError);
      expect(refusal).toMatchObject({ code: 67, codeName: 'CannotCreateIndex' });
    }
  });

  it('narrows a case-insensitive substring search to the documents holding its trigrams', async () => {
    const c = connected().db('trigram').collection('messages');
    await c.createIndex({ text: 'trigram' } as Document);
    await c.insertMany(
      Array.from({ length: 3000 }, (_, i) => ({
        text: i % 1000 === 7 ? `Hello ZEBRA crossing ${i}` : `ordinary message ${i}`,
        n: i,
      })),
    );
    const filter = { text: { $regex: 'zebra cross', $options: 'i' } };
    const found = await plan(c, filter);
    expect(found).toMatchObject({ stage: 'TRIGRAM_IXSCAN', index: 'text_trigram', returned: 3 });
    expect(found.docs).toBe(3);
    expect(found.keys).toBeLessThanOrEqual(3);
    expect(await c.find(filter).toArray()).toEqual(await scanned(c, filter));

    const none = await plan(c, { text: /no such words/i });
    expect(none).toMatchObject({ stage: 'TRIGRAM_IXSCAN', docs: 0, returned: 0 });
    // Two letters give no trigram: the scan stays.
    expect((await plan(c, { text: /ze/i })).stage).toBe('COLLSCAN');
    // A unique key pinned by equality reads one document: that index, not the postings.
    await c.createIndex({ n: 1 }, { unique: true });
    expect(await plan(c, { n: 7, text: /zebra/i })).toMatchObject({ index: 'n_1', docs: 1 });
  });

  it('keeps the scan order, and the sort and limit, with writes kept in step', async () => {
    const c = connected().db('trigram').collection('ordered');
    await c.createIndex({ when: -1, _id: -1 });
    await c.insertMany(
      Array.from({ length: 500 }, (_, i) => ({
        _id: new ObjectId(),
        text: i % 3 === 0 ? `Ünïcode 日本語テキスト 😀 ${i}` : `plain ${i}`,
        when: new Date(Date.UTC(2026, 0, 1, 0, 0, 500 - i)),
      })),
    );
    // Created over existing documents, then kept up by updates and deletes.
    await c.createIndex({ text: 'trigram' } as Document);
    await c.updateMany({ text: /plain 1\d$/ }, { $set: { text: 'now 日本語テキスト too' } });
    await c.deleteMany({ text: /Ünïcode .* 4\d$/ });
    // An update of another field leaves the entries as they are.
    await c.updateMany({}, { $inc: { hits: 1 } });
    for (const [filter, options] of [
      [{ text: /本語テ/ }, {}],
      [{ text: /ÜNÏCODE/i }, { sort: { _id: -1 }, limit: 7 }],
      [{ text: /😀 1/ }, { sort: { when: -1, _id: -1 }, limit: 20 }],
      [{ text: { $regex: '^now 日本' } }, { sort: { _id: 1 } }],
    ] as const) {
      const got = await c.find(filter, options).toArray();
      expect((await plan(c, filter, options)).stage).toBe('TRIGRAM_IXSCAN');
      expect(got).toEqual(await scanned(c, filter, options));
      expect(got.length).toBeGreaterThan(0);
    }
    const updated = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19].filter((i) => i % 3 !== 0);
    expect(await c.countDocuments({ text: /now 日本語/ })).toBe(updated.length);
    expect(await c.countDocuments({ text: /Ünïcode .* 4\d$/ })).toBe(0);
  });

  it('reads the sort index and skips what lacks a trigram when every trigram is common', {
    timeout: 120_000,
  }, async () => {
    const c = connected().db('trigram').collection('common');
    await c.createIndex({ when: -1, _id: -1 });
    await c.createIndex({ text: 'trigram' } as Document);
    // More documents than the planner samples (10,000), each trigram of the phrase in all.
    await c.insertMany(
      Array.from({ length: 20_500 }, (_, i) => ({
        text: `system message ${i}`,
        when: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
    );
    const filter = { text: /SYSTEM MESS/i };
    const options = { sort: { when: -1, _id: -1 }, limit: 10 } as const;
    const found = await plan(c, filter, options);
    expect(found).toMatchObject({ index: 'when_-1__id_-1', sieve: 'text_trigram', returned: 10 });
    expect(found.docs).toBe(10);
    expect(await c.find(filter, options).toArray()).toEqual(await scanned(c, filter, options));
    // In a smaller collection too, when half the documents or more hold every trigram.
    const small = connected().db('trigram').collection('common_small');
    await small.createIndex({ when: -1, _id: -1 });
    await small.createIndex({ text: 'trigram' } as Document);
    await small.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ text: `system message ${i}`, when: new Date(i) })),
    );
    expect(await plan(small, filter, options)).toMatchObject({ sieve: 'text_trigram', docs: 10 });
    // Common trigrams around a rare one (`234` is in about one message in a hundred): postings.
    const rare = { text: /MESSAGE 1234\b/i };
    const narrowed = await plan(c, rare, options);
    expect(narrowed).toMatchObject({ stage: 'TRIGRAM_IXSCAN', returned: 1 });
    expect(narrowed.keys).toBeLessThan(500);
    expect(await c.find(rare, options).toArray()).toEqual(await scanned(c, rare, options));
  });

  it('answers an alternation whose every branch is bounded, and scans when one is not', async () => {
    const c = connected().db('trigram').collection('either');
    await c.createIndex({ text: 'trigram' } as Document);
    await c.insertMany(
      ['the red fox', 'a blue whale', 'green frog', 'redish', 'Blue sky'].map((text) => ({ text })),
    );
    const both = { text: /red f|BLUE/i };
    expect((await plan(c, both)).stage).toBe('TRIGRAM_IXSCAN');
    expect(await c.find(both).toArray()).toEqual(await scanned(c, both));
    expect((await c.find(both).toArray()).length).toBe(3);
    expect((await plan(c, { text: /red|bl/ })).stage).toBe('COLLSCAN');
  });

  it('answers a $or of regexes over indexed fields from the union of their postings', async () => {
    const c = connected().db('trigram').collection('works');
    await c.createIndex({ when: -1, _id: -1 });
    for (const field of ['name', 'slug', 'source'])
      await c.createIndex({ [field]: 'trigram' } as Document);
    await c.insertMany(
      Array.from({ length: 2000 }, (_, i) => ({
        user: i % 2 ? 'ann' : 'bob',
        name: i % 500 === 3 ? `Spiral ${i}` : `piece ${i}`,
        slug: i % 400 === 5 ? `spiral-${i}` : `p${i}`,
        source: i % 300 === 5 ? `(wipe) (spiral ${i})` : `(wipe) (ink ${i})`,
        when: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 977)),
      })),
    );
    const term = { $regex: 'SPIRAL', $options: 'i' };
    const anyField = { $or: [{ name: term }, { slug: term }, { source: term }] };
    // As the works search writes it: the user, the search, the cursor's position (a `$or` of
    // its own, which no trigram narrows), sorted newest first with a page size.
    const position = { when: { $lte: new Date(Date.UTC(2026, 0, 1, 0, 0, 900)) } };
    const worksSearch = {
      $and: [
        { user: { $in: ['ann', 'bob'] } },
        anyField,
        { ...position, $or: [{ when: { $lt: position.when.$lte } }, { _id: { $lt: 'zzz' } }] },
      ],
    };
    const recent = { sort: { when: -1, _id: -1 }, limit: 5 } as const;
    const cases: Array<[Document, Document]> = [
      [anyField, {}],
      [anyField, { sort: { _id: -1 }, limit: 3 }],
      [worksSearch, recent],
      [worksSearch, { sort: { _id: 1 }, skip: 2 }],
      [{ $and: [{ source: /wipe/ }, anyField] }, recent],
    ];
    for (const [filter, options] of cases) {
      const explained = await c.find(filter, options).explain('executionStats');
      const winning = JSON.stringify(explained.queryPlanner.winningPlan);
      expect(winning).toContain('"stage":"OR"');
      for (const index of ['name_trigram', 'slug_trigram', 'source_trigram'])
        expect(winning).toContain(index);
      // Each of the 14 works is fetched once, though two match in two fields.
      expect(explained.executionStats.totalDocsExamined).toBeLessThanOrEqual(14);
      const got = await c.find(filter, options).toArray();
      expect(got).toEqual(await scanned(c, filter, options));
      expect(got.length).toBeGreaterThan(0);
    }
    expect(await c.countDocuments(anyField)).toBe(4 + 5 + 7 - 2);
    // One branch without a trigram (two letters) could match anything: the scan stays.
    const loose = { $or: [{ name: term }, { source: /sp/i }] };
    expect((await plan(c, loose)).stage).toBe('COLLSCAN');
    // A branch on a field without a trigram index: the same.
    expect((await plan(c, { $or: [{ name: term }, { user: term }] })).stage).toBe('COLLSCAN');
  });

  it('folds case as the i flag does, and splits at lone surrogates, on the edge cases', async () => {
    const c = connected().db('trigram').collection('edges');
    await c.createIndex({ text: 'trigram' } as Document);
    const texts = [
      ...['😀ab', '😃ab', 'Sab', 'ſab', 'sab', 'Kab', 'kab', 'İab', 'iab', 'ıab', 'Iab'],
      ...['ǅab', 'ǆab', 'Ǆab', 'ßab', 'ẞab', 'ssab', 'Σab', 'σab', 'ςab', '𐐀ab', '𐐨ab'],
      ...['日本語ab', 'a\nb c', '\u0001ab', 'x😀😀ab', '😀'],
    ];
    await c.insertMany(texts.map((text) => ({ text })));
    const patterns: Array<[string, string]> = [
      ['\\uDE00ab', ''],
      ['\\uD83D\\uDE00ab', ''],
      ['[ſS]ab', ''],
      ['[ſS]ab', 'i'],
      ...[
        'ſab',
        'Sab',
        'kab',
        'Kab',
        'İab',
        'iab',
        'ıab',
        'ǅab',
        'ǆab',
        'ßab',
        'ẞab',
        'σab',
        'ςab',
      ].map((p): [string, string] => [p, 'i']),
      ['𐐀ab', 'i'],
      ['𐐨ab', ''],
      ['\\cJb c', ''],
      ['\\x01ab', ''],
      ['😀+ab', ''],
      ['😀{2}ab', ''],
      ['(?:😀|日本)[aA]b', ''],
      ['本語ab|😀ab', 'i'],
      ['^.ab$', ''],
    ];
    let indexed = 0;
    for (const [source, options] of patterns) {
      const filter = { text: { $regex: source, $options: options } };
      if ((await plan(c, filter)).stage === 'TRIGRAM_IXSCAN') indexed++;
      expect([source, await c.find(filter).toArray()]).toEqual([source, await scanned(c, filter)]);
    }
    expect(indexed).toBeGreaterThan(patterns.length / 2);
  });

  it('goes with its collection and can be dropped', async () => {
    const c = connected().db('trigram').collection('dropped');
    await c.createIndex({ text: 'trigram' } as Document, { name: 'search' });
    await c.insertOne({ text: 'something to find' });
    await c.dropIndex('search');
    expect((await plan(c, { text: /to find/ })).stage).toBe('COLLSCAN');
    await c.createIndex({ text: 'trigram' } as Document, { name: 'search' });
    expect(await c.countDocuments({ text: /to find/ })).toBe(1);
    await c.drop();
    await c.createIndex({ text: 'trigram' } as Document, { name: 'search' });
    expect(await c.countDocuments({ text: /to find/ })).toBe(0);
  });

  it('stays out of an export, which a real MongoDB could not restore with it', async () => {
    const c = connected().db('trigram_export').collection('chat');
    await c.createIndex({ when: -1 });
    await c.createIndex({ text: 'trigram' } as Document);
    await c.insertOne({ text: 'hello', when: new Date(0) });
    const out = await mkdtemp(join(tmpdir(), 'trigram-export-'));
    try {
      await exportDump(connected(), out);
      const metadata = EJSON.parse(
        await readFile(join(out, 'trigram_export', 'chat.metadata.json'), 'utf8'),
      );
      expect(metadata.indexes.map((index: Document) => index.name)).toEqual(['_id_', 'when_-1']);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
