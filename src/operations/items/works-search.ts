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

const anyOf = (clauses: Document[]): Document =>
  clauses.length === 1 ? (clauses[0] as Document) : { $or: clauses };
const holding = (fields: string[], term: string) =>
  anyOf(fields.map((field) => ({ [field]: literalMatch(term) })));

/** The records of a kind holding the term: a plain `$regex` (with `i`) on each stored field. */
export const searchFilter = (kind: ItemKind, term: string): Document =>
  holding(fieldsOf(kind), term);

/** The field a relevance list ranks on first, set on each row: 1 for a name match, 0 for source only. */
export const NAME_MATCH = '__nameMatch';

/** The records of a kind that share one name-match rank. */
export interface RankGroup {
  filter: Document;
  nameMatch: 0 | 1;
}

/**
 * A kind's matches split by rank, so each group is read in the `hits` order (through its index)
 * and the groups merge by rank: the name matches, then the records holding the term only in
 * their source (a piece whose name also holds it is in the first group only).
 */
export function rankGroups(kind: ItemKind, term: string): RankGroup[] {
  const { names, sources } = searchFields[kind];
  const groups: RankGroup[] = [];
  if (names.length > 0) groups.push({ filter: holding(names, term), nameMatch: 1 });
  if (sources.length > 0) {
    const notInName = names.map((field) => ({ [field]: literalMatch(term) }));
    const filter = holding(sources, term);
    groups.push({
      filter: notInName.length > 0 ? { $and: [filter, { $nor: notInName }] } : filter,
      nameMatch: 0,
    });
  }
  return groups;
}

/**
 * Where a group of one rank stands against a relevance position `p` read `way`: wholly past
 * it (`all`), wholly short of it (`none`), or, at `p`'s own rank, past it by hits, when and _id
 * (`ties`).
 */
export function groupPast(
  p: PublishedPosition,
  way: 'after' | 'before',
  nameMatch: 0 | 1,
): 'all' | 'none' | 'ties' {
  const rank = p.nameMatch ?? 0;
  if (rank === nameMatch) return 'ties';
  // Down the list (after) ranks fall; up it (before) they rise.
  return (way === 'after') === nameMatch < rank ? 'all' : 'none';
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
