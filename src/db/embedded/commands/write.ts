import { BSON, BSONRegExp, type Document, ObjectId } from 'bson';
import type { Collection } from '../collection.js';
import { badValue, CommandError, failedToParse, notSupported, writeError } from '../errors.js';
import { parseSort, select } from '../planner.js';
import { prepare } from '../query.js';
import { TimeLimit } from '../time-limit.js';
import { applyUpdate, checkUpdate, isReplacement, upsertDocument } from '../update.js';
import { isPlainObject } from '../values.js';
import { collectionArg, type Handler, projector } from './common.js';

/** Statements of a write command, from the body or an OP_MSG document sequence. */
function statements(command: Document, field: string): Document[] {
  const list = command[field];
  if (!Array.isArray(list) || !list.every(isPlainObject))
    throw failedToParse(`'${field}' must be an array of documents`);
  return list;
}

/** Runs each statement; a failed one becomes a write error and, when ordered, stops the rest. */
function eachStatement(
  command: Document,
  list: Document[],
  run: (statement: Document, index: number) => void,
): Document[] {
  const writeErrors: Document[] = [];
  for (const [index, statement] of list.entries()) {
    try {
      run(statement, index);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      writeErrors.push(writeError(index, error));
      if (command.ordered !== false) break;
    }
  }
  return writeErrors;
}

const withErrors = (reply: Document, writeErrors: Document[]) =>
  writeErrors.length > 0 ? { ...reply, writeErrors } : reply;

function refuseStatementOptions(statement: Document): void {
  if (statement.collation !== undefined) throw notSupported('collation');
  if (statement.arrayFilters !== undefined) throw notSupported('arrayFilters');
}

const insert: Handler = (command, db, context) => {
  const coll = context.store.ensureCollection(db, collectionArg(command, 'insert'));
  let n = 0;
  const writeErrors = eachStatement(command, statements(command, 'documents'), (doc) => {
    if (Array.isArray(doc._id) || doc._id instanceof BSONRegExp) {
      throw new CommandError(
        53,
        'InvalidIdField',
        `can't use ${Array.isArray(doc._id) ? 'an array' : 'a regex'} for _id`,
      );
    }
    coll.insert(doc._id === undefined ? { _id: new ObjectId(), ...doc } : { _id: doc._id, ...doc });
    n++;
  });
  return withErrors({ n }, writeErrors);
};

/** Stores the updated document if it differs; true when it did. `change`: the checked update. */
function replace(coll: Collection, old: Document, updated: Document, change: Document): boolean {
  if (Buffer.compare(BSON.serialize(old), BSON.serialize(updated)) === 0) return false;
  coll.replace(old, updated, isReplacement(change) ? 'replace' : 'update');
  return true;
}

/** The command's maxTimeMS, running from now; its scans stop with 50 once it is spent. */
function startTimeLimit(command: Document): TimeLimit | undefined {
  const timeLimit = TimeLimit.of(command.maxTimeMS);
  timeLimit?.resume();
  return timeLimit;
}

const update: Handler = (command, db, context) => {
  const timeLimit = startTimeLimit(command);
  const name = collectionArg(command, 'update');
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const writeErrors = eachStatement(command, statements(command, 'updates'), (statement, index) => {
    refuseStatementOptions(statement);
    const change = checkUpdate(statement.u);
    const coll = context.store.collection(db, name);
    const options = {
      sort: parseSort(statement.sort),
      limit: statement.multi ? 0 : 1,
      hint: statement.hint,
      timeLimit,
    };
    const docs = coll ? select(coll, statement.q, options) : [];
    if (docs.length === 0 && statement.upsert) {
      const doc = upsertDocument(prepare(statement.q ?? {}) as Document, change);
      context.store.ensureCollection(db, name).insert(doc);
      upserted.push({ index, _id: doc._id });
      n++;
      return;
    }
    for (const old of docs) {
      const modified = replace(coll as Collection, old, applyUpdate(old, change), change);
      n++;
      if (modified) nModified++;
    }
  });
  return withErrors({ n, nModified, ...(upserted.length > 0 ? { upserted } : {}) }, writeErrors);
};

const remove: Handler = (command, db, context) => {
  const timeLimit = startTimeLimit(command);
  const coll = context.store.collection(db, collectionArg(command, 'delete'));
  let n = 0;
  const writeErrors = eachStatement(command, statements(command, 'deletes'), (statement) => {
    refuseStatementOptions(statement);
    if (statement.limit !== 0 && statement.limit !== 1)
      throw failedToParse('delete limit must be 0 or 1');
    for (const doc of coll
      ? select(coll, statement.q, { limit: statement.limit, hint: statement.hint, timeLimit })
      : []) {
      coll?.remove(doc);
      n++;
    }
  });
  return withErrors({ n }, writeErrors);
};

const findAndModify: Handler = (command, db, context) => {
  const name = collectionArg(command, Object.keys(command)[0] as string);
  if (command.arrayFilters !== undefined) throw notSupported('arrayFilters');
  if (command.remove && command.update !== undefined)
    throw failedToParse('Cannot specify both an update and remove=true');
  if (!command.remove && command.update === undefined)
    throw failedToParse('Either an update or remove=true must be specified');
  if (command.remove && (command.new || command.upsert))
    throw badValue('remove cannot be combined with new or upsert');
  const change = command.remove ? undefined : checkUpdate(command.update);
  const present =
    projector(command.fields, command.new ? undefined : command.query) ??
    ((docs: Document[]) => docs);
  const shown = (doc: Document | undefined) => (doc ? present([doc])[0] : null);
  const coll = context.store.collection(db, name);
  const [old] = coll
    ? select(coll, command.query, {
        sort: parseSort(command.sort),
        limit: 1,
        hint: command.hint,
        timeLimit: startTimeLimit(command),
      })
    : [];
  if (!change) {
    if (old) coll?.remove(old);
    return { lastErrorObject: { n: old ? 1 : 0 }, value: shown(old) };
  }
  if (old) {
    const updated = applyUpdate(old, change);
    replace(coll as Collection, old, updated, change);
    return {
      lastErrorObject: { n: 1, updatedExisting: true },
      value: shown(command.new ? updated : old),
    };
  }
  if (!command.upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
  const doc = upsertDocument(prepare(command.query ?? {}) as Document, change);
  context.store.ensureCollection(db, name).insert(doc);
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
    value: shown(command.new ? doc : undefined),
  };
};

export const writeCommands: Record<string, Handler> = {
  insert,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
};
