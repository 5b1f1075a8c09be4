import type { Collection, Document } from 'mongodb';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { POSTING_SIZES } from '../../src/db/embedded/trigram-postings.js';
import { embeddedClientPerFile } from '../support/embedded-client.js';

// Messages inserted one at a time wait in the trigram index's pending list; past
// POSTING_SIZES.pendingDocs the server folds them into the posting blocks in the background,
// a slice at a time between the inserts, and whatever waits once the writes pause. Searches
// answer what a scan answers all along.
const connected = embeddedClientPerFile();

/** The documents waiting in the index's pending list, as `explain` reports them. */
async function waiting(c: Collection) {
  const explained = await c.find({ text: /t17z/ }).explain();
  const stage = explained.queryPlanner.winningPlan.inputStage as Document;
  expect(stage.stage).toBe('TRIGRAM_IXSCAN');
  return stage.waitingDocuments as number;
}

describe('the trigram pending list folded in the background', () => {
  it('stays short under single inserts and empties once they pause, searches exact throughout', {
    timeout: 180_000,
  }, async () => {
    const c = connected().db('posting-folds').collection('messages');
    await c.createIndex({ when: -1, _id: -1 });
    await c.createIndex({ text: 'trigram' } as Document);
    const total = POSTING_SIZES.pendingDocs + 3_000;
    const text = (i: number) => `message ${i} says ${i % 4 === 0 ? 'Quartz' : 'plain'} t${i % 97}z`;
    const searches: Array<[Document, Document]> = [
      [{ text: /quartz/i }, { sort: { when: -1, _id: -1 }, limit: 50 }],
      [{ text: /t17z/ }, {}],
      [{ text: /message 1\d\d\d says/ }, { sort: { _id: -1 } }],
    ];
    const exact = async () => {
      for (const [filter, options] of searches)
        expect(await c.find(filter, options).toArray()).toEqual(
          await c.find(filter, { ...options, hint: { $natural: 1 } }).toArray(),
        );
    };
    let most = 0;
    let inserted = 0;
    while (inserted < total) {
      // Twenty at a time, as concurrent writers send them: one commit holds several.
      await Promise.all(
        Array.from({ length: 20 }, (_, n) => {
          const i = inserted + n;
          return c.insertOne({ _id: new ObjectId(), text: text(i), when: new Date(i * 1000) });
        }),
      );
      inserted += 20;
      if (inserted % 2_000 === 0) {
        most = Math.max(most, await waiting(c));
        await exact();
      }
    }
    // Folded by the background well before a write would have had to fold the whole list.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(POSTING_SIZES.pendingDocs + 2_000);
    expect(await waiting(c)).toBeLessThan(POSTING_SIZES.pendingDocs);
    await exact();
    // A pause of the writes: what waits is folded.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await waiting(c)).toBe(0);
    await exact();
    expect(await c.countDocuments({ text: /quartz/i })).toBe(Math.ceil(inserted / 4));
  });
});
