import { type Document, ObjectId } from 'bson';
import { compare } from 'mingo/util';
import { cloneDeep } from './documents.js';
import { badValue, CommandError, failedToParse, notSupported, typeMismatch } from './errors.js';
import { getPath, setPath, unsetPath } from './paths.js';
import { compileFilter, prepare } from './query.js';
import { isOperatorObject, isPlainObject, valueKey } from './values.js';

type Operator = (doc: Document, path: string, argument: unknown) => void;

const operators: Record<string, Operator> = {
  $set: (doc, path, value) => setPath(doc, path, cloneDeep(value)),
  $unset: (doc, path) => unsetPath(doc, path),
  $inc: (doc, path, by) => arithmetic(doc, path, by, '$inc', (a, b) => a + b),
  $mul: (doc, path, by) => arithmetic(doc, path, by, '$mul', (a, b) => a * b),
  $min: (doc, path, value) => {
    const current = getPath(doc, path);
    if (current === undefined || compare(value, current) < 0) setPath(doc, path, cloneDeep(value));
  },
  $max: (doc, path, value) => {
    const current = getPath(doc, path);
    if (current === undefined || compare(value, current) > 0) setPath(doc, path, cloneDeep(value));
  },
  $currentDate: (doc, path, kind) => {
    if (kind !== true && !(isPlainObject(kind) && kind.$type === 'date')) {
      throw notSupported(`$currentDate ${JSON.stringify(kind)}`);
    }
    setPath(doc, path, new Date());
  },
  $push: (doc, path, value) => arrayAt(doc, path).push(...each(value, '$push')),
  $addToSet: (doc, path, value) => {
    const list = arrayAt(doc, path);
    for (const item of each(value, '$addToSet')) {
      if (!list.some((existing) => valueKey(existing) === valueKey(item))) list.push(item);
    }
  },
  $pull: (doc, path, condition) => {
    const list = getPath(doc, path);
    if (list === undefined) return;
    if (!Array.isArray(list)) throw badValue(`Cannot apply $pull to a non-array value`);
    const matches = pullMatcher(condition);
    setPath(
      doc,
      path,
      list.filter((item) => !matches(item)),
    );
  },
};

const unsupported = new Set(['$rename', '$pop', '$pullAll', '$bit']);

const idOf = (doc: Document) => `{_id: ${JSON.stringify(doc._id)}}`;

function arithmetic(
  doc: Document,
  path: string,
  by: unknown,
  op: string,
  combine: (a: number, b: number) => number,
) {
  if (typeof by !== 'number')
    throw typeMismatch(
      `Cannot apply ${op} with a non-numeric argument: {${path}: ${JSON.stringify(by)}}`,
    );
  const current = getPath(doc, path);
  if (current !== undefined && typeof current !== 'number') {
    throw typeMismatch(
      `Cannot apply ${op} to a value of non-numeric type: ${idOf(doc)} has the field '${path}' of type ${typeof current}`,
    );
  }
  setPath(doc, path, combine(current ?? 0, by));
}

function arrayAt(doc: Document, path: string): unknown[] {
  const current = getPath(doc, path);
  if (current === undefined) {
    const list: unknown[] = [];
    setPath(doc, path, list);
    return list;
  }
  if (!Array.isArray(current)) {
    throw badValue(
      `The field '${path}' must be an array but is of type ${typeof current} in document ${idOf(doc)}`,
    );
  }
  return current;
}

function each(value: unknown, op: string): unknown[] {
  if (!isOperatorObject(value)) return [cloneDeep(value)];
  const { $each, ...modifiers } = value;
  if (Object.keys(modifiers).length > 0)
    throw notSupported(`${op} modifiers ${Object.keys(modifiers).join(', ')}`);
  if (!Array.isArray($each)) throw badValue(`The argument to $each in ${op} must be an array`);
  return $each.map((item) => cloneDeep(item));
}

function pullMatcher(condition: unknown): (item: unknown) => boolean {
  const prepared = prepare(condition);
  if (isOperatorObject(prepared)) {
    const filter = compileFilter({ item: prepared });
    return (item) => filter.test({ item });
  }
  if (isPlainObject(prepared)) {
    const filter = compileFilter(prepared);
    return (item) => isPlainObject(item) && filter.test(item);
  }
  if (prepared instanceof RegExp) return (item) => typeof item === 'string' && prepared.test(item);
  const key = valueKey(prepared);
  return (item) => valueKey(item) === key;
}

/** Whether an update (checked) is a replacement document rather than update operators. */
export const isReplacement = (update: Document) => !Object.keys(update)[0]?.startsWith('$');

/** Refuses malformed, conflicting and unsupported update documents before anything changes. */
export function checkUpdate(update: unknown): Document {
  if (Array.isArray(update)) throw notSupported('a pipeline-style update');
  if (!isPlainObject(update))
    throw failedToParse('Update argument must be either an object or an array');
  if (isReplacement(update)) {
    const dollar = Object.keys(update).find((key) => key.startsWith('$'));
    if (dollar)
      throw badValue(
        `The dollar ($) prefixed field '${dollar}' is not allowed in a replacement document`,
      );
    return update;
  }
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(update)) {
    if (unsupported.has(op)) throw notSupported(`the update operator ${op}`);
    if (!Object.hasOwn(operators, op) && op !== '$setOnInsert') {
      throw failedToParse(
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(fields))
      throw failedToParse(`Modifiers operate on fields, not {${op}: ${JSON.stringify(fields)}}`);
    paths.push(...Object.keys(fields));
  }
  for (const [i, a] of paths.entries()) {
    for (const b of paths.slice(i + 1)) {
      const [outer, inner] = a.length <= b.length ? [a, b] : [b, a];
      if (inner === outer || inner.startsWith(`${outer}.`)) {
        throw new CommandError(
          40,
          'ConflictingUpdateOperators',
          `Updating the path '${inner}' would create a conflict at '${outer}'`,
        );
      }
    }
  }
  return update;
}

const immutableId = () =>
  new CommandError(
    66,
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );

/** The document `update` (checked) makes of `old`; `$setOnInsert` applies when inserting. */
export function applyUpdate(old: Document, update: Document, inserting = false): Document {
  if (isReplacement(update)) {
    const { _id, ...fields } = update;
    if (_id !== undefined && old._id !== undefined && valueKey(_id) !== valueKey(old._id))
      throw immutableId();
    return { _id: old._id ?? _id ?? new ObjectId(), ...fields };
  }
  const doc = cloneDeep(old) as Document;
  for (const [op, fields] of Object.entries(update)) {
    const apply = op === '$setOnInsert' ? (inserting ? operators.$set : undefined) : operators[op];
    if (apply)
      for (const [path, argument] of Object.entries(fields as Document)) apply(doc, path, argument);
  }
  if (old._id !== undefined && valueKey(doc._id) !== valueKey(old._id)) throw immutableId();
  return doc._id === undefined ? { _id: new ObjectId(), ...doc } : { _id: doc._id, ...doc };
}

/** The document an upsert inserts: the filter's equality fields, then the update. */
export function upsertDocument(filter: Document, update: Document): Document {
  const seed: Document = {};
  const collect = (conditions: Document) => {
    for (const [field, condition] of Object.entries(conditions)) {
      if (field === '$and' && Array.isArray(condition))
        condition.filter(isPlainObject).forEach(collect);
      if (field.startsWith('$')) continue;
      const value = isOperatorObject(condition) ? condition.$eq : condition;
      if (value !== undefined && !(value instanceof RegExp)) setPath(seed, field, cloneDeep(value));
    }
  };
  collect(filter);
  return applyUpdate(seed, update, true);
}
