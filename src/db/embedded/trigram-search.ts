import type { Document } from 'bson';
import type { Index } from './indexes.js';
import { patternTrigrams, type TrigramQuery, usable } from './trigram-pattern.js';
import { trigramKey } from './trigrams.js';
import { isOperatorObject, isPlainObject } from './values.js';

/** Postings counted up to this many: enough to tell a rare trigram from a common one. */
export const COMMON_POSTINGS = 2_000;
/** At most this many trigrams of one pattern are looked up (any subset is still required). */
const MOST_TRIGRAMS = 12;

/** A `$regex` on a trigram-indexed field: the index and what every match contains. */
export interface TrigramSearch {
  postings: Postings;
  query: TrigramQuery;
  /** Postings of the rarest required trigram, counted up to COMMON_POSTINGS. */
  estimate: number;
}

/** The regexes a filter applies to `field`: its own condition and those in a top-level `$and`. */
function fieldRegexes(filter: Document, field: string): RegExp[] {
  const found: RegExp[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition))
      for (const part of condition.filter(isPlainObject)) found.push(...fieldRegexes(part, field));
    if (key !== field) continue;
    if (condition instanceof RegExp) found.push(condition);
    else if (isOperatorObject(condition) && condition.$regex instanceof RegExp)
      found.push(condition.$regex);
  }
  return found;
}

/** Fewer trigrams, spread along the pattern, when it has many. */
const fewer = (trigrams: string[]) =>
  trigrams.length <= MOST_TRIGRAMS
    ? trigrams
    : Array.from(
        { length: MOST_TRIGRAMS },
        (_, i) => trigrams[Math.floor((i * trigrams.length) / MOST_TRIGRAMS)] as string,
      );

/**
 * The trigram index that narrows a filter's `$regex` (the rarest first), if any. Regexes here
 * come from ./regex.ts: without `i` (rewritten into classes) and without `u`.
 */
export function trigramSearch(
  indexes: Iterable<Index>,
  filter: Document,
): TrigramSearch | undefined {
  let best: TrigramSearch | undefined;
  for (const index of indexes) {
    if (!index.trigram) continue;
    const postings = new Postings(index);
    for (const regex of fieldRegexes(filter, index.fields[0] as string)) {
      if (/[iuv]/.test(regex.flags)) continue;
      const query = postings.ranked(patternTrigrams(regex.source));
      if (!usable(query)) continue;
      const estimate = postings.estimate(query);
      if (!best || estimate < best.estimate) best = { postings, query, estimate };
    }
  }
  return best;
}

/** For `explain`: the index and the trigrams looked up (the rarest first), alternations as `either`. */
export function describeTrigrams({ postings, query }: TrigramSearch): Document {
  const described = (q: TrigramQuery): Document => ({
    all: q.all,
    ...(q.either.length > 0 && { either: q.either.map((branches) => branches.map(described)) }),
  });
  return { indexName: postings.index.name, trigrams: described(query) };
}

/** A trigram index's postings: for each trigram, the `_id` keys of the documents holding it. */
export class Postings {
  readonly #counts = new Map<string, number>();
  /** Where an entry's key is put together for a lookup. */
  #scratch = Buffer.allocUnsafe(64);
  constructor(readonly index: Index) {}

  /** Whether the document filed under `idKey` holds the trigram. */
  has(trigram: string, idKey: Buffer): boolean {
    const length = Buffer.byteLength(trigram) + idKey.length;
    if (length > this.#scratch.length) this.#scratch = Buffer.allocUnsafe(2 * length);
    const at = this.#scratch.write(trigram);
    idKey.copy(this.#scratch, at);
    return this.index.entries.doesExist(this.#scratch.subarray(0, length));
  }

  /** The entries of one trigram, up to COMMON_POSTINGS. */
  count(trigram: string): number {
    let count = this.#counts.get(trigram);
    if (count === undefined) {
      count = 0;
      const start = trigramKey(trigram);
      const end = Buffer.concat([start, Buffer.from([0xff])]);
      for (const _ of this.index.entries.getKeys({ start, end, limit: COMMON_POSTINGS })) count++;
      this.#counts.set(trigram, count);
    }
    return count;
  }

  /** The query with fewer trigrams, the rarest first (the first one drives a search). */
  ranked(query: TrigramQuery): TrigramQuery {
    const all = fewer(query.all).sort((a, b) => this.count(a) - this.count(b));
    return { all, either: query.either.map((branches) => branches.map((b) => this.ranked(b))) };
  }

  /** How many documents a ranked query may select, at most (capped as `count` is). */
  estimate(query: TrigramQuery): number {
    if (query.all.length > 0) return this.count(query.all[0] as string);
    const [branches = []] = query.either;
    return branches.reduce((sum, branch) => sum + this.estimate(branch), 0);
  }

  /** The `_id` keys (copies) holding one trigram, in `_id` order or its reverse. */
  *ids(trigram: string, reverse: boolean): Generator<Buffer> {
    const prefix = trigramKey(trigram);
    const start = prefix;
    const end = Buffer.concat([prefix, Buffer.from([0xff])]);
    const range = reverse ? { start: end, end: start, reverse } : { start, end };
    for (const key of this.index.entries.getKeys(range))
      yield Buffer.from((key as Buffer).subarray(prefix.length));
  }

  /** Whether the document filed under `idKey` holds what the ranked query requires. */
  holds(query: TrigramQuery, idKey: Buffer, from = 0): boolean {
    for (let i = from; i < query.all.length; i++)
      if (!this.has(query.all[i] as string, idKey)) return false;
    return query.either.every((branches) => branches.some((b) => this.holds(b, idKey)));
  }

  /**
   * A cheaper `holds` for a sieve over another index, where each entry would otherwise be
   * fetched and tested: the rarest trigram only (each further lookup would cost about what it
   * saves when every trigram is common).
   */
  mayHold(query: TrigramQuery, idKey: Buffer): boolean {
    const [rarest] = query.all;
    return rarest === undefined ? this.holds(query, idKey) : this.has(rarest, idKey);
  }

  /**
   * The `_id` keys of the documents that may match a ranked query, in `_id` order (or its
   * reverse): the rarest trigram's postings, each probed for the others; without a trigram of
   * its own, the union of its first alternation's branches. `examined`: one per posting read.
   */
  *candidates(query: TrigramQuery, reverse: boolean, examined: () => void): Generator<Buffer> {
    const [driver] = query.all;
    if (driver !== undefined) {
      for (const idKey of this.ids(driver, reverse)) {
        examined();
        if (this.holds(query, idKey, 1)) yield idKey;
      }
      return;
    }
    const [branches = [], ...others] = query.either;
    const union = new Map<string, Buffer>();
    for (const branch of branches)
      for (const idKey of this.candidates(branch, reverse, examined))
        union.set(idKey.toString('latin1'), idKey);
    const ordered = [...union.values()].sort(Buffer.compare);
    if (reverse) ordered.reverse();
    const rest = { all: [], either: others };
    for (const idKey of ordered) if (this.holds(rest, idKey)) yield idKey;
  }
}
