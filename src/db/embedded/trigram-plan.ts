import type { Document } from 'bson';
import type { Index } from './indexes.js';
import { describeTrigrams, type TrigramSearch, trigramSearcher } from './trigram-search.js';
import { isPlainObject } from './values.js';

/**
 * A `$or` whose every branch a trigram index narrows (each maybe on another field): the union
 * of the branches' candidates. `estimate`: the sum of the branches' (at most that many).
 */
export interface TrigramUnion {
  branches: TrigramPlan[];
  estimate: number;
}

/** How a trigram index serves a filter: one `$regex`, or a `$or` of them. */
export type TrigramPlan = TrigramSearch | TrigramUnion;

const isUnion = (plan: TrigramPlan): plan is TrigramUnion => 'branches' in plan;

/** The `$or` lists a filter requires: its own and those in a top-level `$and` (nested ones too). */
function orClauses(filter: Document): unknown[][] {
  const found: unknown[][] = [];
  if (Array.isArray(filter.$or)) found.push(filter.$or);
  if (Array.isArray(filter.$and))
    for (const part of filter.$and.filter(isPlainObject)) found.push(...orClauses(part));
  return found;
}

/**
 * The trigram plan expected to read the fewest postings for a filter, if any: a `$regex` it
 * requires (./trigram-search.ts), or a `$or` it requires whose every branch has a plan of its
 * own; a `$or` with a branch no trigram narrows could match anything, so it adds nothing.
 * `documents`: how many the collection holds (./trigram-search.ts, Postings).
 */
export function trigramPlan(
  indexes: Iterable<Index>,
  filter: Document,
  documents?: number,
): TrigramPlan | undefined {
  const searchOf = trigramSearcher(indexes, documents);
  const planOf = (part: Document): TrigramPlan | undefined => {
    let best: TrigramPlan | undefined = searchOf(part);
    for (const clause of orClauses(part)) {
      const branches: TrigramPlan[] = [];
      for (const branch of clause) {
        const plan = isPlainObject(branch) ? planOf(branch) : undefined;
        if (!plan) break;
        branches.push(plan);
      }
      if (branches.length === 0 || branches.length < clause.length) continue;
      const estimate = branches.reduce((sum, branch) => sum + branch.estimate, 0);
      if (!best || estimate < best.estimate) best = { branches, estimate };
    }
    return best;
  };
  return planOf(filter);
}

/**
 * The `_id` keys of the documents that may match, each once, in `_id` order (or its reverse):
 * a union merges its branches' candidates, each already in that order. `examined`: one per
 * posting read.
 */
export function* trigramCandidates(
  plan: TrigramPlan,
  reverse: boolean,
  examined: () => void,
): Generator<Buffer> {
  if (!isUnion(plan)) return yield* plan.postings.candidates(plan.query, reverse, examined);
  const streams = plan.branches.map((branch) => trigramCandidates(branch, reverse, examined));
  const heads = streams.map((stream) => stream.next());
  const sign = reverse ? -1 : 1;
  for (;;) {
    let first: Buffer | undefined;
    for (const head of heads)
      if (!head.done && (!first || Buffer.compare(head.value, first) * sign < 0))
        first = head.value;
    if (!first) return;
    yield first;
    for (const [i, head] of heads.entries())
      if (!head.done && head.value.equals(first))
        heads[i] = (streams[i] as Generator<Buffer>).next();
  }
}

/** How many of the newest postings of a search's rarest trigram (at least: whole blocks) are probed to estimate its matches. */
const SAMPLE_POSTINGS = 256;

/**
 * Whether about as many documents as `enough` asks for (it grows with the matches) hold every
 * trigram a plan requires: its estimate (the rarest trigram's postings) scaled by the share of
 * that trigram's newest postings that hold the others too, probed only as far as settles it.
 * A union: its estimate.
 */
export function likelyEnough(plan: TrigramPlan, enough: (matches: number) => boolean): boolean {
  const [rarest] = isUnion(plan) ? [] : plan.query.all;
  if (isUnion(plan) || rarest === undefined) return enough(plan.estimate);
  return plan.postings.sampleNewest(plan.query, rarest, SAMPLE_POSTINGS, (held, read) =>
    enough(read === 0 ? 0 : Math.round((plan.estimate * held) / read)),
  );
}

/**
 * For a sieve, made once per scan: whether the document filed under the `_id` key in `key`
 * from `start` on (a sort index's entry ends with it) may match (Postings.sieve).
 */
export function trigramSieve(plan: TrigramPlan): (key: Uint8Array, start: number) => boolean {
  if (isUnion(plan)) {
    const branches = plan.branches.map(trigramSieve);
    return (key, start) => branches.some((mayHold) => mayHold(key, start));
  }
  const mayHold = plan.postings.sieve(plan.query);
  return (key, start) => mayHold(key, start, key.length);
}

/** For `explain`: a `TRIGRAM_IXSCAN` stage, or an `OR` stage of them. */
export function describeTrigramScan(plan: TrigramPlan, direction: string): Document {
  if (isUnion(plan))
    return {
      stage: 'OR',
      inputStages: plan.branches.map((branch) => describeTrigramScan(branch, direction)),
    };
  return {
    stage: 'TRIGRAM_IXSCAN',
    keyPattern: plan.postings.index.keyPattern,
    ...describeTrigrams(plan),
    direction,
  };
}

/** For `explain` of a sieve: the index and trigrams probed, or `or` of them. */
export function describeSieve(plan: TrigramPlan): Document {
  return isUnion(plan) ? { or: plan.branches.map(describeSieve) } : describeTrigrams(plan);
}
