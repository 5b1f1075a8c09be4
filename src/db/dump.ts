import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Binary, BSON, type Document, EJSON } from 'bson';
import { MongoBulkWriteError, type MongoClient } from 'mongodb';
import {
  collectionFileStem,
  collectionNameOfStem,
  DumpError,
  isDatabaseName,
  isShortenedStem,
} from './dump-names.js';

/** Databases a dump leaves out, as mongodump does. */
const systemDatabases = new Set(['admin', 'local', 'config']);
const BATCH = 1_000;
/** Files are opened without following a link in their last step: one planted there is refused. */
const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

/** A link where a dump has a file or a directory: it could lead outside the dump. */
const linkRefused = (path: string) =>
  new DumpError(`${path} is a link or not a plain file or directory; a dump is only those`);

/** Opens a file of a dump; a link in its place is refused. */
const openInDump = (path: string, flags: number) =>
  open(path, flags, 0o600).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? linkRefused(path) : error;
  });

export interface DumpSummary {
  collections: number;
  documents: number;
}

const uuidHex = (uuid: unknown) =>
  uuid && typeof uuid === 'object' && 'buffer' in uuid
    ? Buffer.from((uuid as Binary).buffer).toString('hex')
    : undefined;

const notADatabaseName = (name: string) =>
  `"${name}" is not a database name MongoDB allows (no / \\ . space " $ or NUL, at most 63 bytes)`;

/** `<out>/<db>`, made if missing; refused when it is a link (it would lead outside `out`). */
async function databaseDir(out: string, dbName: string): Promise<string> {
  const dir = join(out, dbName);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!(await lstat(dir)).isDirectory()) throw linkRefused(dir);
  return dir;
}

/**
 * Writes every collection of every database (but admin, local and config) in mongodump's
 * layout: `<out>/<db>/<collection>.bson`, the documents as concatenated BSON, and
 * `<collection>.metadata.json` (canonical extended JSON) with its indexes, uuid and name; the
 * collection's name in the file name is encoded as mongodump encodes it (dump-names.ts).
 */
export async function exportDump(client: MongoClient, out: string): Promise<DumpSummary> {
  const summary: DumpSummary = { collections: 0, documents: 0 };
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  const names = databases.map(({ name }) => name).filter((name) => !systemDatabases.has(name));
  const unnamable = names.find((name) => !isDatabaseName(name));
  if (unnamable !== undefined) throw new DumpError(notADatabaseName(unnamable));
  for (const dbName of names) {
    const db = client.db(dbName);
    const dir = await databaseDir(out, dbName);
    for (const info of await db.listCollections({ type: 'collection' }).toArray()) {
      const coll = db.collection(info.name);
      const stem = join(dir, collectionFileStem(info.name));
      const file = await openInDump(`${stem}.bson`, WRITE_FLAGS);
      try {
        for await (const raw of coll.find({}, { raw: true, sort: { _id: 1 } })) {
          await file.write(raw as unknown as Buffer);
          summary.documents++;
        }
      } finally {
        await file.close();
      }
      // The embedded server's trigram indexes stay out: mongorestore into a real MongoDB would
      // refuse them, and the service creates them again on the embedded default.
      const indexes = (await coll.listIndexes().toArray())
        .filter((index) => !Object.values(index.key).includes('trigram'))
        .map(({ ns: _ns, ...index }) => index);
      const metadata = {
        indexes,
        uuid: uuidHex((info as Document).info?.uuid) ?? '',
        collectionName: info.name,
        type: 'collection',
        options: (info as Document).options ?? {},
      };
      const metadataFile = await openInDump(`${stem}.metadata.json`, WRITE_FLAGS);
      try {
        await metadataFile.writeFile(EJSON.stringify(metadata, { relaxed: false }));
      } finally {
        await metadataFile.close();
      }
      summary.collections++;
    }
  }
  return summary;
}

/** The documents of a `.bson` file of concatenated BSON documents, types kept exactly. */
export function* readBsonFile(bytes: Buffer, source = 'the file'): Generator<Document> {
  for (let at = 0; at < bytes.length; ) {
    const length = at + 4 <= bytes.length ? bytes.readInt32LE(at) : 0;
    if (length < 5 || at + length > bytes.length)
      throw new DumpError(`${source}: a BSON document overruns it at byte ${at}`);
    let doc: Document;
    try {
      doc = BSON.deserialize(bytes.subarray(at, at + length), {
        promoteValues: false,
        bsonRegExp: true,
      });
    } catch (error) {
      throw new DumpError(`${source}: the BSON document at byte ${at} is damaged (${error})`);
    }
    yield doc;
    at += length;
  }
}

/** A file of the dump, read without following a link. */
async function readDumpFile(path: string): Promise<Buffer> {
  const file = await openInDump(path, READ_FLAGS);
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** A `.metadata.json` file: canonical extended JSON. */
async function readMetadata(path: string): Promise<Document> {
  const text = (await readDumpFile(path)).toString('utf8');
  try {
    return EJSON.parse(text, { relaxed: false });
  } catch (error) {
    throw new DumpError(`${path}: not extended JSON (${(error as Error).message})`);
  }
}

/** One collection of a dump, checked before anything is written. */
interface DumpedCollection {
  db: string;
  name: string;
  bsonFile: string;
  metadata: Document | undefined;
}

/**
 * The collection a `<stem>.bson` holds: the metadata's `collectionName`, which must be the
 * name mongodump writes as this stem; without one, the name the stem encodes.
 */
function collectionOf(stem: string, metadata: Document | undefined, file: string): string {
  const named = metadata?.collectionName;
  if (typeof named === 'string') {
    if (collectionFileStem(named) !== stem)
      throw new DumpError(
        `${file}: its metadata names the collection ${JSON.stringify(named)}, whose file would be ${collectionFileStem(named)}.bson`,
      );
    return named;
  }
  const name = isShortenedStem(stem) ? undefined : collectionNameOfStem(stem);
  if (name === undefined)
    throw new DumpError(
      `${file}: its name is not a percent-encoded collection name and no metadata names the collection`,
    );
  return name;
}

/**
 * Every collection of a dump directory, refusing (with DumpError) what import cannot read
 * safely: a link, a database directory MongoDB would not name, a file whose name and metadata
 * disagree. Files whose collection begins with `$` (mongodump's users and roles of one
 * database) are left out, as mongorestore leaves them out of a whole restore.
 */
async function readDumpPlan(dir: string): Promise<DumpedCollection[]> {
  const plan: DumpedCollection[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) throw linkRefused(path);
    if (!entry.isDirectory() || systemDatabases.has(entry.name)) continue;
    if (!isDatabaseName(entry.name))
      throw new DumpError(`${path}: ${notADatabaseName(entry.name)}`);
    const files = await readdir(path, { withFileTypes: true });
    const names = new Set(files.map((file) => file.name));
    for (const file of files) {
      const filePath = join(path, file.name);
      if (!file.name.endsWith('.bson') && !file.name.endsWith('.metadata.json')) continue;
      if (!file.isFile()) throw linkRefused(filePath);
      if (!file.name.endsWith('.bson')) continue;
      const stem = file.name.slice(0, -'.bson'.length);
      const metadataFile = join(path, `${stem}.metadata.json`);
      const metadata = names.has(`${stem}.metadata.json`)
        ? await readMetadata(metadataFile)
        : undefined;
      const name = collectionOf(stem, metadata, filePath);
      if (name.startsWith('$')) continue;
      if (name.includes('$') || name.includes('\0'))
        throw new DumpError(`${filePath}: MongoDB allows no $ or NUL in a collection name`);
      plan.push({ db: entry.name, name, bsonFile: filePath, metadata });
    }
  }
  return plan;
}

/**
 * Loads a directory in mongodump's layout (as `exportDump` writes it, or mongodump of another
 * deployment): each `<db>/<collection>.bson` with the indexes of its metadata file, once the
 * whole directory has been checked (nothing is written when any of it is refused). Documents
 * whose `_id` (or a unique key) is already there are skipped, as mongorestore does.
 */
export async function importDump(
  client: MongoClient,
  dir: string,
): Promise<DumpSummary & { skipped: number }> {
  const summary = { collections: 0, documents: 0, skipped: 0 };
  for (const { db: dbName, name, bsonFile, metadata } of await readDumpPlan(dir)) {
    const db = client.db(dbName);
    const coll = db.collection(name);
    if (metadata) {
      const indexes = ((metadata.indexes ?? []) as Document[])
        .filter((index) => index.name !== '_id_')
        .map(({ v: _v, ns: _ns, ...index }) => index);
      if (indexes.length > 0) await coll.createIndexes(indexes as never);
      else await db.createCollection(name).catch(() => undefined);
    }
    let batch: Document[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      try {
        summary.documents += (await coll.insertMany(batch, { ordered: false })).insertedCount;
      } catch (error) {
        if (!(error instanceof MongoBulkWriteError)) throw error;
        const inserted = error.result.insertedCount;
        summary.documents += inserted;
        summary.skipped += batch.length - inserted;
      }
      batch = [];
    };
    for (const doc of readBsonFile(await readDumpFile(bsonFile), bsonFile)) {
      batch.push(doc);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    summary.collections++;
  }
  return summary;
}
