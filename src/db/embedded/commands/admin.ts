import type { Document } from 'bson';
import type { Collection } from '../collection.js';
import { DEFAULT_BATCH_SIZE } from '../cursors.js';
import { CommandError, failedToParse, namespaceNotFound, notSupported } from '../errors.js';
import { parseIndexSpec } from '../index-spec.js';
import { compileFilter } from '../query.js';
import { isPlainObject, valueKey } from '../values.js';
import { type Context, collectionArg, countArg, type Handler } from './common.js';
import { databaseSizes } from './stats.js';

const collectionOptions = [
  'capped',
  'size',
  'max',
  'validator',
  'validationLevel',
  'validationAction',
  'timeseries',
  'clusteredIndex',
  'expireAfterSeconds',
  'viewOn',
  'pipeline',
  'changeStreamPreAndPostImages',
  'encryptedFields',
  'storageEngine',
  'indexOptionDefaults',
];

function existing(command: Document, field: string, db: string, context: Context): Collection {
  const name = collectionArg(command, field);
  const coll = context.store.collection(db, name);
  if (!coll) throw namespaceNotFound(`${db}.${name}`);
  return coll;
}

const batchSize = (command: Document) =>
  countArg(isPlainObject(command.cursor) ? command.cursor : {}, 'batchSize', DEFAULT_BATCH_SIZE);

const createIndexes: Handler = (command, db, context) => {
  const name = collectionArg(command, 'createIndexes');
  if (!Array.isArray(command.indexes) || command.indexes.length === 0) {
    throw failedToParse('Must specify at least one index to create');
  }
  const specs = command.indexes.map(parseIndexSpec);
  const createdCollectionAutomatically = !context.store.collection(db, name);
  if (createdCollectionAutomatically) context.store.createCollection(db, name);
  const coll = context.store.collection(db, name) as Collection;
  const numIndexesBefore = coll.indexes.size + 1;
  let created = 0;
  for (const spec of specs) if (coll.createIndex(spec)) created++;
  return {
    createdCollectionAutomatically,
    numIndexesBefore,
    numIndexesAfter: coll.indexes.size + 1,
    ...(created === 0 ? { note: 'all indexes already exist' } : {}),
  };
};

const dropIndexes: Handler = (command, db, context) => {
  const coll = existing(command, 'dropIndexes', db, context);
  const nIndexesWas = coll.indexes.size + 1;
  const { index } = command;
  const byKey = (key: Document) => {
    const found = [...coll.indexes.values()].find(
      (ix) => valueKey(ix.keyPattern) === valueKey(key),
    );
    if (!found)
      throw new CommandError(
        27,
        'IndexNotFound',
        `can't find index with key: ${JSON.stringify(key)}`,
      );
    return found.name;
  };
  const names =
    index === '*'
      ? [...coll.indexes.keys()]
      : typeof index === 'string'
        ? [index]
        : Array.isArray(index)
          ? index
          : isPlainObject(index)
            ? [byKey(index)]
            : undefined;
  if (!names) throw failedToParse("'index' must be a name, a key pattern, a list of names or '*'");
  for (const name of names) coll.dropIndex(String(name));
  return { nIndexesWas };
};

const listCollections: Handler = (command, db, context) => {
  const filter = compileFilter(command.filter);
  const entries = context.store
    .collections(db)
    .map(({ name, meta }) =>
      command.nameOnly
        ? { name, type: 'collection' }
        : {
            name,
            type: 'collection',
            options: {},
            info: { readOnly: false, uuid: meta.uuid },
            idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
          },
    )
    .filter((entry) => filter.test(entry));
  return context.cursors.open(`${db}.$cmd.listCollections`, entries, {
    batchSize: batchSize(command),
  });
};

const listDatabases: Handler = (command, _db, context) => {
  const filter = compileFilter(command.filter);
  const databases = context.store
    .databaseNames()
    .map((name) => {
      if (command.nameOnly) return { name };
      const sizes = databaseSizes(context.store, name);
      const sizeOnDisk = sizes.storageSize + sizes.indexSize;
      return { name, sizeOnDisk, empty: sizes.objects === 0 };
    })
    .filter((entry) => filter.test(entry));
  const totalSize = databases.reduce((sum, db) => sum + ((db as Document).sizeOnDisk ?? 0), 0);
  return {
    databases,
    ...(command.nameOnly ? {} : { totalSize, totalSizeMb: Math.round(totalSize / 2 ** 20) }),
  };
};

const create: Handler = (command, db, context) => {
  const option = collectionOptions.find(
    (name) => command[name] !== undefined && command[name] !== false,
  );
  if (option) throw notSupported(`the collection option '${option}'`);
  context.store.createCollection(db, collectionArg(command, 'create'));
  return {};
};

const drop: Handler = (command, db, context) => {
  const dropped = context.store.dropCollection(db, collectionArg(command, 'drop'));
  return dropped ? { ns: dropped.ns, nIndexesWas: dropped.indexes.size + 1 } : {};
};

export const adminCommands: Record<string, Handler> = {
  createIndexes,
  listIndexes: (command, db, context) => {
    const coll = existing(command, 'listIndexes', db, context);
    return context.cursors.open(coll.ns, coll.specs(), { batchSize: batchSize(command) });
  },
  dropIndexes,
  listCollections,
  listDatabases,
  create,
  drop,
  dropDatabase: (_command, db, context) => {
    context.store.dropDatabase(db);
    return { dropped: db };
  },
};
