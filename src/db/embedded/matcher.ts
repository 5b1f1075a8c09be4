import { BSONRegExp, type Document, ObjectId } from 'bson';
import { encodeValue, typeOf } from './keys.js';
import { isOperatorObject, isPlainObject, pathValues, valueKey } from './values.js';

type Test = (doc: Document) => boolean;

const isScalar = (value: unknown) =>
  ['string', 'number', 'boolean'].includes(typeof value) ||
  value instanceof Date ||
  value instanceof ObjectId;

/** MongoDB's order between two values of one type bracket (numbers, strings, dates: natively). */
function order(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return Buffer.compare(encodeValue(a), encodeValue(b));
}

const comparisons: Record<string, (order: number) => boolean> = {
  $gt: (o) => o > 0,
  $gte: (o) => o >= 0,
  $lt: (o) => o < 0,
  $lte: (o) => o <= 0,
};

/** A test of the values at one path, for one operator; undefined when not handled here. */
function operatorTest(op: string, argument: unknown): ((values: unknown[]) => boolean) | undefined {
  if (op === '$eq' && isScalar(argument)) {
    const key = valueKey(argument);
    return (values) => values.some((v) => valueKey(v) === key);
  }
  if (op === '$ne' && (isScalar(argument) || argument === null)) {
    const key = valueKey(argument);
    return (values) => !values.some((v) => valueKey(v) === key);
  }
  if ((op === '$in' || op === '$nin') && Array.isArray(argument) && argument.every(isScalar)) {
    const keys = new Set(argument.map(valueKey));
    const some = (values: unknown[]) => values.some((v) => keys.has(valueKey(v)));
    return op === '$in' ? some : (values) => !some(values);
  }
  const compare = comparisons[op];
  if (compare && isScalar(argument)) {
    const type = typeOf(argument);
    return (values) => values.some((v) => typeOf(v) === type && compare(order(v, argument)));
  }
  if (op === '$regex' && argument instanceof RegExp) {
    return (values) => values.some((v) => typeof v === 'string' && argument.test(v));
  }
  return undefined;
}

function fieldTest(field: string, condition: unknown): Test | undefined {
  const path = field.split('.');
  let tests: Array<(values: unknown[]) => boolean>;
  if (condition instanceof RegExp)
    tests = [operatorTest('$regex', condition) as (v: unknown[]) => boolean];
  else if (!isOperatorObject(condition)) {
    if (!isScalar(condition) && condition !== null) return undefined;
    const key = valueKey(condition);
    tests = [(values) => values.some((v) => valueKey(v) === key)];
  } else {
    tests = [];
    for (const [op, argument] of Object.entries(condition)) {
      const test = operatorTest(op, argument);
      if (!test) return undefined;
      tests.push(test);
    }
  }
  return (doc) => {
    const values = pathValues(doc, path);
    return tests.every((test) => test(values));
  };
}

/**
 * The filter as a plain function, for the operators the service's queries use (equality,
 * `$ne`, `$in`, `$nin`, comparisons, `$regex` on scalars, `$and`/`$or`/`$nor`); undefined for
 * anything else, which mingo then runs.
 */
export function compileNative(spec: Document): Test | undefined {
  const tests: Test[] = [];
  for (const [field, condition] of Object.entries(spec)) {
    if (field === '$and' || field === '$or' || field === '$nor') {
      if (!Array.isArray(condition) || condition.length === 0 || !condition.every(isPlainObject))
        return undefined;
      const parts = condition.map(compileNative);
      if (parts.some((part) => part === undefined)) return undefined;
      const all = parts as Test[];
      tests.push(
        field === '$and'
          ? (doc) => all.every((test) => test(doc))
          : field === '$or'
            ? (doc) => all.some((test) => test(doc))
            : (doc) => !all.some((test) => test(doc)),
      );
      continue;
    }
    if (field.startsWith('$') || condition instanceof BSONRegExp) return undefined;
    const test = fieldTest(field, condition);
    if (!test) return undefined;
    tests.push(test);
  }
  return (doc) => tests.every((test) => test(doc));
}
