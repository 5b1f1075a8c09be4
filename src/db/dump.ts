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
/** Documents per insert on import, and per batch of the export's cursor (bounded memory). */
const BATCH = 1_000;
/** An export writes its file this many bytes at a time; an import reads it so. */
const CHUNK_BYTES = 1024 * 1024;
/** Progress is reported at most this often. */
const PROGRESS_EVERY_MS = 5_000;
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

/** Where a long export or import is: the collection, and its documents so far (of `total`). */
export interface DumpProgress {
  ns: string;
  documents: number;
  total?: number;
}

export type OnProgress = (progress: DumpProgress) => void;

/** Calls `report` at most every few seconds (nothing for a short run). */
function throttled(report: OnProgress | undefined): OnProgress {
  let last = performance.now();
  return (progress) => {
    if (!report || performance.now() - last < PROGRESS_EVERY_MS) return;
    last = performance.now();
    report(progress);
  };
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
export async function exportDump(
  client: MongoClient,
  out: string,
  onProgress?: OnProgress,
): Promise<DumpSummary> {
  const summary: DumpSummary = { collections: 0, documents: 0 };
  const progress = throttled(onProgress);
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
        const total = await coll.estimatedDocumentCount();
        const ns = `${dbName}.${info.name}`;
        let pending: Buffer[] = [];
        let bytes = 0;
        let documents = 0;
        // Batches of BATCH: each reply is small, so memory stays bounded at any size.
        const found = coll.find({}, { raw: true, sort: { _id: 1 }, batchSize: BATCH });
        for await (const raw of found) {
          pending.push(raw as unknown as Buffer);
          bytes += (raw as unknown as Buffer).length;
          documents++;
          if (bytes < CHUNK_BYTES) continue;
          await file.write(Buffer.concat(pending));
          pending = [];
          bytes = 0;
          progress({ ns, documents, total });
        }
        await file.write(Buffer.concat(pending));
        summary.documents += documents;
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
  const { docs, used } = parseDocuments(bytes, 0, source);
  yield* docs;
  if (used < bytes.length)
    throw new DumpError(`${source}: a BSON document overruns it at byte ${used}`);
}

/** The whole documents at the start of `bytes` (which starts at byte `offset` of the file). */
function parseDocuments(
  bytes: Buffer,
  offset: number,
  source: string,
): { docs: Document[]; used: number } {
  const docs: Document[] = [];
  let at = 0;
  while (at + 4 <= bytes.length) {
    const length = bytes.readInt32LE(at);
    if (length < 5)
      throw new DumpError(`${source}: a BSON document overruns it at byte ${offset + at}`);
    if (at + length > bytes.length) break;
    try {
      docs.push(
        BSON.deserialize(bytes.subarray(at, at + length), {
          promoteValues: false,
          bsonRegExp: true,
        }),
      );
    } catch (error) {
      throw new DumpError(
        `${source}: the BSON document at byte ${offset + at} is damaged (${error})`,
      );
    }
    at += length;
  }
  return { docs, used: at };
}

/**
 * The documents of a dump's `.bson` file, read a chunk at a time (a file of any size in
 * bounded memory), without following a link.
 */
async function* streamBsonFile(path: string): AsyncGenerator<Document[]> {
  const file = await openInDump(path, READ_FLAGS);
  try {
    let rest = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.max(CHUNK_BYTES, rest.length >= 4 ? rest.readInt32LE(0) : 0));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const bytes = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
      const { docs, used } = parseDocuments(bytes, offset, path);
      if (docs.length > 0) yield docs;
      rest = bytes.subarray(used);
      offset += used;
    }
    if (rest.length > 0)
      throw new DumpError(`${path}: a BSON document overruns it at byte ${offset}`);
  } finally {
    await file.close();
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
 * whose `_id` (or a unique key) is already there are skipped, as mongorestore does: unique
 * indexes are made before the documents go in, the others after them (on the embedded
 * database, those are then built in the background: src/db/embedded/index-build.ts).
 */
export async function importDump(
  client: MongoClient,
  dir: string,
  onProgress?: OnProgress,
): Promise<DumpSummary & { skipped: number }> {
  const summary = { collections: 0, documents: 0, skipped: 0 };
  const progress = throttled(onProgress);
  for (const { db: dbName, name, bsonFile, metadata } of await readDumpPlan(dir)) {
    const db = client.db(dbName);
    const coll = db.collection(name);
    const indexes = ((metadata?.indexes ?? []) as Document[])
      .filter((index) => index.name !== '_id_')
      .map(({ v: _v, ns: _ns, ...index }) => index);
    const unique = indexes.filter((index) => index.unique === true);
    if (unique.length > 0) await coll.createIndexes(unique as never);
    else if (metadata) await db.createCollection(name).catch(() => undefined);
    const ns = `${dbName}.${name}`;
    let documents = 0;
    for await (const docs of streamBsonFile(bsonFile)) {
      for (let at = 0; at < docs.length; at += BATCH) {
        const batch = docs.slice(at, at + BATCH);
        try {
          documents += (await coll.insertMany(batch, { ordered: false })).insertedCount;
        } catch (error) {
          if (!(error instanceof MongoBulkWriteError)) throw error;
          const inserted = error.result.insertedCount;
          documents += inserted;
          summary.skipped += batch.length - inserted;
        }
      }
      progress({ ns, documents });
    }
    const others = indexes.filter((index) => index.unique !== true);
    if (others.length > 0)
      await reportingBuilds(client, progress, coll.createIndexes(others as never));
    summary.documents += documents;
    summary.collections++;
  }
  return summary;
}

/**
 * Waits for `building` (a createIndexes, which answers once its indexes are built), reporting
 * how far the embedded database's builds are (its serverStatus lists them; MongoDB's does not).
 */
async function reportingBuilds<T>(
  client: MongoClient,
  progress: OnProgress,
  building: Promise<T>,
): Promise<T> {
  let done = false;
  const watching = (async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const status = await client
        .db('admin')
        .command({ serverStatus: 1 })
        .catch(() => undefined);
      const [first] = (status?.indexBuilds?.inProgress ?? []) as Document[];
      if (first && !done)
        progress({
          ns: `${first.ns} index ${first.index}`,
          documents: first.done,
          total: first.total,
        });
    }
  })();
  try {
    return await building;
  } finally {
    done = true;
    await watching;
  }
}
