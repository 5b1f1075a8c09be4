import type { Document } from 'mongodb';
import { escapeRegExp, literalMatch } from '../search-term.js';
import type { PublishedPosition } from './cursor.js';
import type { ItemKind } from './item.js';

/**
 * Where each kind keeps its searchable text (src/db/collections.ts): `names` (a piece's name,
 * a stored file's slug) rank above `sources` (KidLisp, a melody, a piece's module) when a
 * search is sorted by relevance (docs/contract.md, Searching works).
 */
const searchFields: Record<ItemKind, { names: string[]; sources: string[] }> = {
  kidlisp: { names: [], sources: ['source'] },
  clock: { names: [], sources: ['source'] },
  piece: { names: ['name', 'slug'], sources: ['source'] },
  painting: { names: ['slug'], sources: [] },
  tape: { names: ['slug'], sources: [] },
};

const fieldsOf = (kind: ItemKind) => [...searchFields[kind].names, ...searchFields[kind].sources];

/** The records of a kind holding the term: a plain `$regex` (with `i`) on each stored field. */
export function searchFilter(kind: ItemKind, term: string): Document {
  const clauses = fieldsOf(kind).map((field) => ({ [field]: literalMatch(term) }));
  return clauses.length === 1 ? (clauses[0] as Document) : { $or: clauses };
}

/** The computed fields a relevance order sorts on, besides `when` and `_id`. */
export const NAME_MATCH = '__nameMatch';
export const RANKED_HITS = '__rankedHits';

/**
 * The stage that ranks a kind's matching records: `NAME_MATCH` is 1 when a name field holds the
 * term, else 0; `RANKED_HITS` is `hits`, -1 without it (as the HITS order ranks a missing count).
 */
export function relevanceFields(kind: ItemKind, term: string): Document {
  const { names } = searchFields[kind];
  const pattern = new RegExp(escapeRegExp(term), 'i');
  const inName = names.map((field) => ({
    $regexMatch: { input: { $ifNull: [`$${field}`, ''] }, regex: pattern },
  }));
  return {
    $addFields: {
      [NAME_MATCH]: inName.length === 0 ? { $literal: 0 } : { $cond: [{ $or: inName }, 1, 0] },
      [RANKED_HITS]: { $ifNull: ['$hits', -1] },
    },
  };
}

const RELEVANCE_KEYS = [NAME_MATCH, RANKED_HITS, 'when', '_id'] as const;

export const relevanceSort = (direction: 1 | -1): Record<string, 1 | -1> =>
  Object.fromEntries(RELEVANCE_KEYS.map((key) => [key, direction]));

/**
 * Ranked records strictly past `p` in the relevance order (every key descending): `after`
 * reads down the list, `before` up it. One clause per key: equal on the keys before it, past
 * `p` on it.
 */
export function pastRelevance(p: PublishedPosition, way: 'after' | 'before'): Document {
  const op = way === 'after' ? '$lt' : '$gt';
  const values = [p.nameMatch ?? 0, p.hits, p.when, p.id];
  return {
    $or: RELEVANCE_KEYS.map((key, at) => ({
      ...Object.fromEntries(RELEVANCE_KEYS.slice(0, at).map((equal, i) => [equal, values[i]])),
      [key]: { [op]: values[at] },
    })),
  };
}

const EXCERPT_BEFORE = 40;
const EXCERPT_LENGTH = 120;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** `at` moved back off the second half of a surrogate pair, so a cut there keeps the pair whole. */
const pairStart = (text: string, at: number) =>
  at > 0 && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at - 1 : at;
/** `at` moved forward past the second half of a surrogate pair. */
const pairEnd = (text: string, at: number) =>
  at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at + 1 : at;

/**
 * Up to about 120 characters of `text` around the first case-insensitive occurrence of `term`
 * (40 before it), `…` where it is cut; never splits a surrogate pair. From the start when the
 * term is not found as written (a case the database folds and JavaScript does not).
 */
export function excerptAround(text: string, term: string): string {
  const match = new RegExp(escapeRegExp(term), 'i').exec(text);
  const at = match?.index ?? 0;
  const start = pairStart(text, Math.max(0, at - EXCERPT_BEFORE));
  const matchEnd = at + (match?.[0].length ?? 0);
  const end = pairEnd(text, Math.min(text.length, Math.max(matchEnd, start + EXCERPT_LENGTH)));
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** The excerpt of a matching record: from its first field (names first) that holds the term. */
export function excerptOf(kind: ItemKind, record: Document, term: string): string | null {
  const pattern = new RegExp(escapeRegExp(term), 'i');
  const texts = fieldsOf(kind)
    .map((field) => record[field])
    .filter((value): value is string => typeof value === 'string');
  const text = texts.find((candidate) => pattern.test(candidate)) ?? texts[0];
  return text === undefined ? null : excerptAround(text, term);
}
