import { type Document, Long } from 'bson';
import { DEFAULT_BATCH_SIZE } from '../cursors.js';
import { badValue, notSupported } from '../errors.js';
import { type Execution, execute, parseSort, select } from '../planner.js';
import { Slices } from '../slices.js';
import { TimeLimit } from '../time-limit.js';
import { isPlainObject, pathValues, valueKey } from '../values.js';
import { type Context, collectionArg, countArg, type Handler, projector } from './common.js';

const unsupportedFindOptions = ['tailable', 'awaitData', 'returnKey', 'showRecordId', 'min', 'max'];

const nothing = (): Execution => ({
  docs: [][Symbol.iterator](),
  plan: { stage: 'EOF' },
  stats: { keysExamined: 0, docsExamined: 0 },
});

function runFind(
  command: Document,
  db: string,
  context: Context,
  timeLimit?: TimeLimit,
  slices?: Slices,
): Execution {
  const name = collectionArg(command, 'find');
  for (const option of unsupportedFindOptions)
    if (command[option]) throw notSupported(`the find option '${option}'`);
  const coll = context.store.collection(db, name);
  const options = {
    sort: parseSort(command.sort),
    skip: countArg(command, 'skip'),
    limit: countArg(command, 'limit'),
    hint: command.hint,
    timeLimit,
    slices,
  };
  return coll ? execute(coll, command.filter, options) : nothing();
}

const find: Handler = (command, db, context) => {
  const timeLimit = TimeLimit.of(command.maxTimeMS);
  const slices = new Slices();
  const { docs } = runFind(command, db, context, timeLimit, slices);
  return context.cursors.open(`${db}.${command.find}`, docs, {
    batchSize: countArg(command, 'batchSize', DEFAULT_BATCH_SIZE),
    singleBatch: command.singleBatch === true,
    present: projector(command.projection, command.filter),
    timeLimit,
    slices,
  });
};

/** Explains `find` only: the plan, and what running it examined and took. */
const explain: Handler = (command, db, context) => {
  const inner = command.explain;
  if (!isPlainObject(inner) || typeof inner.find !== 'string')
    throw notSupported('explain of anything but find');
  const started = performance.now();
  const { docs, plan, stats } = runFind(inner, db, context);
  let nReturned = 0;
  for (let next = docs.next(); !next.done; next = docs.next()) nReturned++;
  const executionTimeMillis = Math.round(performance.now() - started);
  return {
    queryPlanner: {
      namespace: `${db}.${inner.find}`,
      parsedQuery: inner.filter ?? {},
      winningPlan: plan,
      rejectedPlans: [],
    },
    executionStats: {
      executionSuccess: true,
      nReturned,
      executionTimeMillis,
      totalKeysExamined: stats.keysExamined,
      totalDocsExamined: stats.docsExamined,
      executionStages: { ...plan, nReturned, executionTimeMillisEstimate: executionTimeMillis },
    },
    command: inner,
  };
};

const count: Handler = (command, db, context) => {
  const coll = context.store.collection(db, collectionArg(command, 'count'));
  const options = {
    skip: countArg(command, 'skip'),
    limit: countArg(command, 'limit'),
    hint: command.hint,
    timeLimit: TimeLimit.of(command.maxTimeMS),
  };
  if (!coll) return { n: 0 };
  const everything = !command.query || Object.keys(command.query).length === 0;
  if (everything) {
    const n = Math.max(0, coll.count() - options.skip);
    return { n: options.limit > 0 ? Math.min(n, options.limit) : n };
  }
  options.timeLimit?.resume();
  const { docs } = execute(coll, command.query, options);
  let n = 0;
  for (let next = docs.next(); !next.done; next = docs.next()) n++;
  return { n };
};

const distinct: Handler = (command, db, context) => {
  const coll = context.store.collection(db, collectionArg(command, 'distinct'));
  if (typeof command.key !== 'string' || command.key === '')
    throw badValue("'key' must be a non-empty string");
  const path = command.key.split('.');
  const values = new Map<string, unknown>();
  const timeLimit = TimeLimit.of(command.maxTimeMS);
  timeLimit?.resume();
  for (const doc of coll ? select(coll, command.query, { timeLimit }) : []) {
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
  killCursors: (command, _db, context) => {
    const ids: unknown[] = Array.isArray(command.cursors) ? command.cursors : [];
    const streams = ids.filter((id) => context.changeStreams.has(id));
    const reply = context.cursors.kill(ids.filter((id) => !streams.includes(id)));
    const killed = context.changeStreams.kill(streams).map((id) => Long.fromNumber(id));
    return { ...reply, cursorsKilled: [...reply.cursorsKilled, ...killed] };
  },
};
