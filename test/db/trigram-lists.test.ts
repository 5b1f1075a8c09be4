import type { Document } from 'mongodb';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { POSTING_SIZES } from '../../src/db/embedded/trigram-postings.js';
import { embeddedClientPerFile } from '../support/embedded-client.js';

// The trigram index's posting lists through the driver, past the sizes where they change shape:
// more documents than one block and the pending list hold, inserted in batches (folded into the
// blocks at each transaction's end) and one at a time (through the pending list), then rewritten
// and removed; and a newest-first page of a term in 1 of 4 documents, which reads the sort index
// and probes the postings instead of fetching every candidate.
const connected = embeddedClientPerFile();

const scanned = (filter: Document, options: Document) => ({
  ...options,
  hint: { $natural: 1 },
  filter,
});

describe('trigram posting lists through the driver', () => {
  it('answer what a scan answers once documents are folded into blocks, rewritten and removed', {
    timeout: 180_000,
  }, async () => {
    const c = connected().db('trigram-lists').collection('messages');
    await c.createIndex({ when: -1, _id: -1 });
    await c.createIndex({ text: 'trigram' } as Document);
    const total = POSTING_SIZES.pendingDocs + 2 * POSTING_SIZES.block + 37;
    const docs = Array.from({ length: total }, (_, i) => ({
      _id: new ObjectId(),
      text: `message ${i} says ${i % 4 === 0 ? 'Quartz' : 'plain'} t${i % 97}z`,
      when: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    const oneByOne = 40;
    for (let at = 0; at < total - oneByOne; at += 1000)
      await c.insertMany(docs.slice(at, Math.min(at + 1000, total - oneByOne)));
    for (const doc of docs.slice(total - oneByOne)) await c.insertOne(doc);
    // Rewritten: some lose the rare word, some gain it; removed: others.
    for (const doc of docs.slice(100, 200))
      await c.updateOne({ _id: doc._id }, { $set: { text: `${doc.text} now QUARTZ` } });
    await c.updateMany({ text: /^message 2\d\d says Quartz/ }, { $set: { text: 'gone' } });
    await c.deleteMany({ text: /^message 3\d\d says/ });
    const newestFirst: Document = { sort: { when: -1, _id: -1 }, limit: 50 };
    for (const [filter, options] of [
      [{ text: /quartz/i }, newestFirst],
      [{ text: /quartz/i }, { sort: { when: 1, _id: 1 }, limit: 50 }],
      [{ text: /t17z/ }, {}],
      [{ text: /message 4\d+ says/ }, { sort: { _id: -1 } }],
      [{ text: /no such words/ }, newestFirst],
    ] as Array<[Document, Document]>) {
      const got = await c.find(filter, options).toArray();
      const { filter: f, ...scan } = scanned(filter, options);
      expect(got).toEqual(await c.find(f, scan).toArray());
    }
    const holding = (i: number) =>
      !(i >= 300 && i < 400) && (i % 4 === 0 ? !(i >= 200 && i < 300) : i >= 100 && i < 200);
    expect(await c.countDocuments({ text: /quartz/i })).toBe(
      docs.filter((_, i) => holding(i)).length,
    );
    // A page of a term in 1 of 4: the sort index is read, each entry probed for the rarest
    // trigram, and far fewer documents fetched than hold the term.
    const explained = await c.find({ text: /quartz/i }, newestFirst).explain('executionStats');
    expect(explained.queryPlanner.winningPlan.trigramSieve?.indexName).toBe('text_trigram');
    expect(explained.executionStats.totalDocsExamined).toBeLessThan(100);
    // Two frequent words seldom together (only the rewritten, oldest ones): the newest
    // postings of the rarer word lack the other, so the postings are read, not the sort
    // index from the newest end (which would fetch every document holding the rarer word).
    const together = { text: /plain.*quartz/i };
    const seldom = await c.find(together, newestFirst).explain('executionStats');
    expect(seldom.queryPlanner.winningPlan.trigramSieve).toBeUndefined();
    expect(seldom.executionStats.totalDocsExamined).toBeLessThan(200);
    expect(await c.find(together, newestFirst).toArray()).toEqual(
      await c.find(together, { ...newestFirst, hint: { $natural: 1 } }).toArray(),
    );
  });
});
