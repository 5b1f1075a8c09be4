import { BSONRegExp, type Document } from 'bson';
import { encodeValue, stringPrefix, successor, TYPE, typeOf } from './keys.js';
import { isOperatorObject, isPlainObject } from './values.js';

/** Keys from `start` (inclusive) up to `end` (exclusive; none: no upper end), ascending order. */
export interface Interval {
  start: Buffer;
  end: Buffer | undefined;
  /** Exactly the keys of one value (`start` is its encoding). */
  point?: true;
}

/** What a filter allows of one field, as ranges of ascending value keys. */
export interface FieldBounds {
  /** Sorted and disjoint; undefined when the filter does not narrow the field. */
  intervals: Interval[] | undefined;
  /** The filter requires the field to exist (`$exists: true`). */
  exists: boolean;
}

const EMPTY = Buffer.alloc(0);
const typeRange = (type: number): Interval => ({
  start: Buffer.from([type]),
  end: Buffer.from([type + 1]),
});
const point = (value: unknown): Interval => {
  const start = encodeValue(value);
  return { start, end: successor(start), point: true };
};

const isRegex = (value: unknown): value is RegExp | BSONRegExp =>
  value instanceof RegExp || value instanceof BSONRegExp;

/** The strings a regex can match: a prefix range when it is anchored and case-sensitive. */
function regexIntervals(regex: RegExp | BSONRegExp): Interval[] {
  const source = regex instanceof RegExp ? regex.source : regex.pattern;
  const flags = regex instanceof RegExp ? regex.flags : regex.options;
  const literal = /^\^([^\\^$.|?*+()[\]{}]*)/.exec(source);
  if (!literal || flags.includes('i') || flags.includes('m') || !literal[1])
    return [typeRange(TYPE.string)];
  const start = stringPrefix(literal[1]);
  return [{ start, end: successor(start) }];
}

/** Intervals for an equality with `value`; undefined when an index cannot narrow it. */
function equalIntervals(value: unknown): Interval[] | undefined {
  if (isRegex(value)) return regexIntervals(value);
  if (Array.isArray(value)) return undefined;
  return [point(value)];
}

function comparison(op: string, value: unknown): Interval[] | undefined {
  const type = typeOf(value);
  if (type === TYPE.null || type === TYPE.minKey || type === TYPE.maxKey || type === TYPE.array)
    return undefined;
  const key = encodeValue(value);
  const bracket = typeRange(type);
  if (op === '$gte') return [{ start: key, end: bracket.end }];
  if (op === '$gt') return [{ start: successor(key) ?? key, end: bracket.end }];
  if (op === '$lte') return [{ start: bracket.start, end: successor(key) }];
  return [{ start: bracket.start, end: key }];
}

/** The intervals one condition (the value of a field in a filter) allows. */
function conditionIntervals(condition: unknown): {
  intervals: Interval[] | undefined;
  exists: boolean;
} {
  if (!isOperatorObject(condition)) return { intervals: equalIntervals(condition), exists: false };
  let intervals: Interval[] | undefined;
  let exists = false;
  const narrow = (more: Interval[] | undefined) => {
    if (more) intervals = intervals ? intersect(intervals, more) : more;
  };
  for (const [op, argument] of Object.entries(condition)) {
    if (op === '$eq') narrow(equalIntervals(argument));
    else if (op === '$in' && Array.isArray(argument)) {
      const each = argument.map(equalIntervals);
      if (each.every((list) => list !== undefined)) narrow(union(each.flat() as Interval[]));
    } else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte')
      narrow(comparison(op, argument));
    else if (op === '$regex' && isRegex(argument)) narrow(regexIntervals(argument));
    else if (op === '$exists') {
      if (argument) exists = true;
      else narrow([point(null)]);
    }
  }
  return { intervals, exists };
}

/**
 * The bounds a filter puts on `field`, from its own condition, those inside a top-level `$and`,
 * and an `$or` whose every branch bounds the field (the union of the branches' bounds). On a
 * multikey field only the first condition is used, and no `$or` (two conditions may be met by
 * different elements of one array, so their intersection would lose documents).
 */
export function fieldBounds(filter: Document, field: string, multikey: boolean): FieldBounds {
  const conditions: Array<{ intervals: Interval[] | undefined; exists: boolean }> = [];
  const collect = (part: Document) => {
    for (const [key, condition] of Object.entries(part)) {
      if (key === '$and' && Array.isArray(condition))
        condition.filter(isPlainObject).forEach(collect);
      else if (key === '$or' && Array.isArray(condition) && !multikey)
        conditions.push(eitherBounds(condition, field));
      else if (key === field) conditions.push(conditionIntervals(condition));
    }
  };
  collect(filter);
  let bounds: FieldBounds = { intervals: undefined, exists: false };
  for (const { intervals, exists } of conditions) {
    bounds = {
      exists: bounds.exists || exists,
      intervals:
        bounds.intervals && intervals && !multikey
          ? intersect(bounds.intervals, intervals)
          : (bounds.intervals ?? intervals),
    };
  }
  return bounds;
}

/** What an `$or` allows of the field: every branch's values, if every branch bounds it. */
function eitherBounds(branches: unknown[], field: string): FieldBounds {
  const each = branches.map((branch) =>
    isPlainObject(branch) ? fieldBounds(branch, field, false) : undefined,
  );
  const bounded = each.length > 0 && each.every((b) => b?.intervals !== undefined);
  return {
    intervals: bounded ? union(each.flatMap((b) => b?.intervals ?? [])) : undefined,
    exists: bounded && each.every((b) => b?.exists),
  };
}

const before = (a: Buffer | undefined, b: Buffer | undefined) =>
  a !== undefined && (b === undefined || Buffer.compare(a, b) < 0);

export function union(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => Buffer.compare(a.start, b.start));
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out[out.length - 1];
    const overlaps = last && (last.end === undefined || before(next.start, last.end));
    if (!last || !overlaps) {
      out.push({ ...next });
      continue;
    }
    if (last.point && next.point && last.start.equals(next.start)) continue;
    if (last.end !== undefined && (next.end === undefined || before(last.end, next.end)))
      last.end = next.end;
    delete last.point;
  }
  return out;
}

export function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = Buffer.compare(x.start, y.start) >= 0 ? x.start : y.start;
      const end = before(x.end, y.end) || y.end === undefined ? x.end : y.end;
      const point =
        (x.point && x.start === start && x.end === end) ||
        (y.point && y.start === start && y.end === end);
      if (end === undefined || Buffer.compare(start, end) < 0)
        out.push({ start, end, ...(point && { point: true as const }) });
    }
  }
  return union(out);
}

/** Whether one of the intervals holds null (and missing) values. */
export function allowsNull({ intervals, exists }: FieldBounds): boolean {
  if (exists) return false;
  if (!intervals) return true;
  const nullKey = Buffer.from([TYPE.null]);
  return intervals.some(
    (i) => Buffer.compare(i.start, nullKey) <= 0 && (i.end === undefined || before(nullKey, i.end)),
  );
}

export const everything: Interval = { start: EMPTY, end: undefined };
