import { hostname } from 'node:os';
import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import { setValue } from 'mingo/util';
import type { Collection } from '../collection.js';
import { DEFAULT_BATCH_SIZE } from '../cursors.js';
import { checkResultDepth } from '../depth.js';
import { cloneDeep, defineField } from '../documents.js';
import { CommandError, failedToParse, notSupported } from '../errors.js';
import { parseSort, execute as plan, type SelectOptions, select, sortDocs } from '../planner.js';
import { mingoOptions, prepare, viaMingo } from '../query.js';
import { Slices } from '../slices.js';
import type { Store } from '../store.js';
import { TimeLimit } from '../time-limit.js';
import { isPlainObject, pathValues, valueKey } from '../values.js';
import { type Context, collectionArg, countArg, type Handler, idFirst } from './common.js';
import { collStatsOf } from './stats.js';

const supportedStages = [
  '$collStats',
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$group',
  '$project',
  '$lookup',
  '$unionWith',
  '$count',
  '$addFields',
  '$set',
  '$unset',
  '$unwind',
  '$replaceRoot',
  '$replaceWith',
  '$sortByCount',
];
const stageName = (stage: Document) => Object.keys(stage)[0] as string;

/** Validates the stages (and those of `$unionWith` sub-pipelines) and readies them for mingo. */
function checkPipeline(pipeline: unknown): Document[] {
  if (!Array.isArray(pipeline))
    throw failedToParse("'pipeline' option must be specified as an array");
  return pipeline.map((stage) => {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
      throw failedToParse('A pipeline stage specification object must contain exactly one field.');
    }
    const name = stageName(stage);
    if (!supportedStages.includes(name)) {
      throw new CommandError(
        40324,
        'Location40324',
        `Unrecognized pipeline stage name: '${name}'; the embedded MongoDB server supports ${supportedStages.join(', ')}`,
      );
    }
    if (name !== '$unionWith') return prepare(stage) as Document;
    const spec =
      typeof stage.$unionWith === 'string' ? { coll: stage.$unionWith } : stage.$unionWith;
    if (!isPlainObject(spec) || typeof spec.coll !== 'string')
      throw failedToParse('$unionWith needs a collection name');
    return { $unionWith: { coll: spec.coll, pipeline: checkPipeline(spec.pipeline ?? []) } };
  });
}

/** `$lookup` by `localField`/`foreignField`, through the foreign `_id` or a full index when there is one. */
function lookup(docs: Document[], spec: unknown, db: string, store: Store): Document[] {
  if (!isPlainObject(spec) || spec.pipeline !== undefined || spec.let !== undefined)
    throw notSupported('$lookup with a pipeline');
  const { from, localField, foreignField, as } = spec;
  if (![from, localField, foreignField, as].every((v) => typeof v === 'string' && v !== '')) {
    throw failedToParse('$lookup needs the string fields from, localField, foreignField and as');
  }
  const find = matcher(store.collection(db, from), foreignField);
  const localPath = localField.split('.');
  return docs.map((doc) => {
    const locals = pathValues(doc, localPath);
    const matches = new Map<string, Document>();
    for (const value of locals.length > 0 ? locals : [null])
      for (const match of find(value)) matches.set(valueKey(match._id), match);
    setValue(
      doc,
      as,
      [...matches.values()].map((match) => cloneDeep(match)),
    );
    return doc;
  });
}

/** Finds the foreign documents whose `field` equals a value: by index, or from a map built once. */
function matcher(foreign: Collection | undefined, field: string): (value: unknown) => Document[] {
  if (!foreign) return () => [];
  const indexed =
    field === '_id' ||
    [...foreign.indexes.values()].some(
      (ix) =>
        ix.ready && ix.fields[0] === field && !ix.spec.sparse && !ix.spec.partialFilterExpression,
    );
  if (indexed)
    return (value) => select(foreign, { [field]: { $eq: value === undefined ? null : value } });
  const byKey = new Map<string, Document[]>();
  const path = field.split('.');
  for (const doc of foreign.scan()) {
    const values = pathValues(doc, path);
    for (const key of new Set((values.length > 0 ? values : [null]).map(valueKey))) {
      const list = byKey.get(key);
      if (list) list.push(doc);
      else byKey.set(key, [doc]);
    }
  }
  return (value) => byKey.get(valueKey(value)) ?? [];
}

const isCount = (value: unknown, least: number): value is number =>
  Number.isInteger(value) && (value as number) >= least;

/** Leading `$match`, `$sort`, `$skip` and `$limit` stages, which `select` runs through the indexes. */
function leadingSelection(pipeline: Document[]): {
  filter: unknown;
  options: SelectOptions;
  rest: Document[];
} {
  let at = 0;
  const filter = pipeline[at]?.$match;
  if (filter !== undefined) at++;
  const options: SelectOptions = {};
  if (pipeline[at]?.$sort !== undefined) options.sort = parseSort(pipeline[at++]?.$sort);
  if (isCount(pipeline[at]?.$skip, 0)) options.skip = pipeline[at++]?.$skip;
  if (isCount(pipeline[at]?.$limit, 1)) options.limit = pipeline[at++]?.$limit;
  return { filter, options, rest: pipeline.slice(at) };
}

/**
 * The fields of an `$addFields`/`$set` stage when every one is a top-level name set to a
 * `$literal` (what a union tags its branches with), else undefined: mingo handles the rest.
 */
function literalFields(spec: unknown): [string, unknown][] | undefined {
  if (!isPlainObject(spec)) return undefined;
  const fields = Object.entries(spec);
  const literal = ([name, value]: [string, unknown]) =>
    !name.includes('.') &&
    !name.startsWith('$') &&
    isPlainObject(value) &&
    Object.keys(value).length === 1 &&
    '$literal' in value;
  if (fields.length === 0 || !fields.every(literal)) return undefined;
  return fields.map(([name, value]) => [name, (value as { $literal: unknown }).$literal]);
}

type Step = (docs: Document[]) => Document[];

/**
 * A stage this file runs itself rather than through mingo, on documents it owns: `$sort`,
 * `$skip`, `$limit`, and literal `$addFields`/`$set`. Undefined for any other stage.
 */
function nativeStep(stage: Document): Step | undefined {
  if (stage.$sort !== undefined) return (docs) => sortDocs(docs, parseSort(stage.$sort) ?? {});
  if (isCount(stage.$limit, 1)) return (docs) => docs.slice(0, stage.$limit);
  if (isCount(stage.$skip, 0)) return (docs) => docs.slice(stage.$skip);
  const fields = literalFields(stage.$addFields ?? stage.$set);
  if (!fields) return undefined;
  return (docs) => {
    for (const doc of docs)
      for (const [name, value] of fields) defineField(doc, name, cloneDeep(value));
    return docs;
  };
}

/**
 * The documents a pipeline makes of a collection: the leading selection through `select`, the
 * rest here (`$lookup`, `$unionWith` against the store, and the native stages) or with mingo.
 * `select` decodes each document from its stored bytes, so the documents are this command's own
 * to modify: nothing is copied.
 */
async function execute(
  read: ReadSelection,
  store: Store,
  db: string,
  name: string,
  pipeline: Document[],
  timeLimit?: TimeLimit,
  hint?: unknown,
): Promise<Document[]> {
  const coll = store.collection(db, name);
  const { filter, options, rest } = leadingSelection(pipeline);
  let docs = coll ? await read(coll, filter, { ...options, timeLimit, hint }) : [];
  let segment: Document[] = [];
  const flush = () => {
    if (segment.length > 0)
      docs = viaMingo(() => new Aggregator(segment, mingoOptions).run(docs) as Document[]);
    segment = [];
  };
  for (const stage of rest) {
    if (stage.$lookup !== undefined) {
      flush();
      docs = lookup(docs, stage.$lookup, db, store);
    } else if (stage.$unionWith !== undefined) {
      flush();
      const { coll: other, pipeline: inner } = stage.$unionWith as {
        coll: string;
        pipeline: Document[];
      };
      docs = [...docs, ...(await execute(read, store, db, other, inner, timeLimit))];
    } else {
      const step = nativeStep(stage);
      if (!step) segment.push(stage);
      else {
        flush();
        docs = step(docs);
      }
    }
  }
  flush();
  return docs;
}

/** `$collStats` as a first stage: one document about the collection. */
function collStatsStage(spec: unknown, db: string, name: string, context: Context): Document {
  if (!isPlainObject(spec)) throw failedToParse('$collStats takes an object');
  const coll = context.store.collection(db, name);
  const storage = isPlainObject(spec.storageStats) ? spec.storageStats : undefined;
  return {
    ns: `${db}.${name}`,
    host: hostname(),
    localTime: new Date(),
    ...(storage && { storageStats: collStatsOf(context, db, name, Number(storage.scale) || 1) }),
    ...(spec.count !== undefined && { count: coll?.count() ?? 0 }),
  };
}

/** How an aggregation reads its leading selection: in slices (../slices.ts), taking turns. */
type ReadSelection = (
  coll: Collection,
  filter: unknown,
  options: SelectOptions,
) => Promise<Document[]>;

const slicedSelection =
  (context: Context): ReadSelection =>
  (coll, filter, options) => {
    const slices = new Slices();
    const { docs } = plan(coll, filter, { ...options, slices });
    return context.cursors.collect(docs, slices, options.timeLimit);
  };

const aggregate: Handler = (command, db, context) => {
  if (typeof command.aggregate !== 'string') throw notSupported('aggregate on a database');
  const name = collectionArg(command, 'aggregate');
  if (command.explain) throw notSupported('explain of aggregate');
  if (!isPlainObject(command.cursor)) {
    throw failedToParse(
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const batchSize = countArg(command.cursor, 'batchSize', DEFAULT_BATCH_SIZE);
  // A change stream: a tailable cursor over the change log (change-streams.ts).
  if (Array.isArray(command.pipeline) && command.pipeline[0]?.$changeStream !== undefined)
    return context.changeStreams.open(db, name, command.pipeline, batchSize);
  const pipeline = checkPipeline(command.pipeline);
  const first = pipeline[0];
  if (first?.$collStats !== undefined) {
    const stats = collStatsStage(first.$collStats, db, name, context);
    const rest = pipeline.slice(1);
    const docs = rest.length
      ? viaMingo(() => new Aggregator(rest, mingoOptions).run([stats]) as Document[])
      : [stats];
    return context.cursors.open(`${db}.${name}`, docs, { batchSize });
  }
  const timeLimit = TimeLimit.of(command.maxTimeMS);
  timeLimit?.resume();
  const read = slicedSelection(context);
  return execute(read, context.store, db, name, pipeline, timeLimit, command.hint)
    .then((found) => {
      const docs = found.map(idFirst);
      for (const doc of docs) checkResultDepth(doc);
      return context.cursors.open(`${db}.${name}`, docs, { batchSize });
    })
    .finally(() => timeLimit?.pause());
};

export const aggregateCommands: Record<string, Handler> = { aggregate };
