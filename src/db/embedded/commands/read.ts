import type { Document } from 'bson';
import { DEFAULT_BATCH_SIZE } from '../cursors.js';
import { badValue, notSupported } from '../errors.js';
import { parseSort, type Selection, select } from '../planner.js';
import { isPlainObject, pathValues, valueKey } from '../values.js';
import { type Context, collectionArg, countArg, type Handler, projector } from './common.js';

const unsupportedFindOptions = ['tailable', 'awaitData', 'returnKey', 'showRecordId', 'min', 'max'];

function runFind(command: Document, db: string, context: Context): Selection {
  const name = collectionArg(command, 'find');
  for (const option of unsupportedFindOptions)
    if (command[option]) throw notSupported(`the find option '${option}'`);
  const coll = context.store.collection(db, name);
  const options = {
    sort: parseSort(command.sort),
    skip: countArg(command, 'skip'),
    limit: countArg(command, 'limit'),
  };
  return coll
    ? select(coll, command.filter, options)
    : { docs: [], plan: { stage: 'COLLSCAN' }, docsExamined: 0 };
}

const find: Handler = (command, db, context) => {
  const { docs } = runFind(command, db, context);
  return context.cursors.open(`${db}.${command.find}`, docs, {
    batchSize: countArg(command, 'batchSize', DEFAULT_BATCH_SIZE),
    singleBatch: command.singleBatch === true,
    present: projector(command.projection, command.filter),
  });
};

/** Explains `find` only: how the documents were found and how many were examined. */
const explain: Handler = (command, db, context) => {
  const inner = command.explain;
  if (!isPlainObject(inner) || typeof inner.find !== 'string')
    throw notSupported('explain of anything but find');
  const { docs, plan, docsExamined } = runFind(inner, db, context);
  const winningPlan = plan.stage === 'COLLSCAN' ? plan : { stage: 'FETCH', inputStage: plan };
  return {
    queryPlanner: { namespace: `${db}.${inner.find}`, winningPlan },
    executionStats: {
      nReturned: docs.length,
      totalDocsExamined: docsExamined,
      executionStages: winningPlan,
    },
  };
};

const count: Handler = (command, db, context) => {
  const coll = context.store.collection(db, collectionArg(command, 'count'));
  const options = { skip: countArg(command, 'skip'), limit: countArg(command, 'limit') };
  if (!coll) return { n: 0 };
  const everything = !command.query || Object.keys(command.query).length === 0;
  const n = everything
    ? Math.max(0, coll.docs.size - options.skip)
    : select(coll, command.query, options).docs.length;
  return { n: options.limit > 0 ? Math.min(n, options.limit) : n };
};

const distinct: Handler = (command, db, context) => {
  const coll = context.store.collection(db, collectionArg(command, 'distinct'));
  if (typeof command.key !== 'string' || command.key === '')
    throw badValue("'key' must be a non-empty string");
  const path = command.key.split('.');
  const values = new Map<string, unknown>();
  for (const doc of coll ? select(coll, command.query).docs : []) {
    for (const value of pathValues(doc, path)) {
      if (value !== undefined && !values.has(valueKey(value))) values.set(valueKey(value), value);
    }
  }
  return { values: [...values.values()] };
};

export const readCommands: Record<string, Handler> = {
  find,
  explain,
  count,
  distinct,
  getMore: (command, _db, context) => context.cursors.getMore(command.getMore, command.batchSize),
  killCursors: (command, _db, context) =>
    context.cursors.kill(Array.isArray(command.cursors) ? command.cursors : []),
};
