import { mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Binary, BSON, type Document, EJSON } from 'bson';
import { MongoBulkWriteError, type MongoClient } from 'mongodb';

/** Databases a dump leaves out, as mongodump does. */
const systemDatabases = new Set(['admin', 'local', 'config']);
const BATCH = 1_000;

export interface DumpSummary {
  collections: number;
  documents: number;
}

const uuidHex = (uuid: unknown) =>
  uuid && typeof uuid === 'object' && 'buffer' in uuid
    ? Buffer.from((uuid as Binary).buffer).toString('hex')
    : undefined;

/**
 * Writes every collection of every database (but admin, local and config) in mongodump's
 * layout: `<out>/<db>/<collection>.bson`, the documents as concatenated BSON, and
 * `<collection>.metadata.json` (canonical extended JSON) with its indexes, uuid and name.
 */
export async function exportDump(client: MongoClient, out: string): Promise<DumpSummary> {
  const summary: DumpSummary = { collections: 0, documents: 0 };
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  for (const { name: dbName } of databases) {
    if (systemDatabases.has(dbName)) continue;
    const db = client.db(dbName);
    const dir = join(out, dbName);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const info of await db.listCollections({ type: 'collection' }).toArray()) {
      const coll = db.collection(info.name);
      const file = await open(join(dir, `${info.name}.bson`), 'w', 0o600);
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
      await writeFile(
        join(dir, `${info.name}.metadata.json`),
        EJSON.stringify(metadata, { relaxed: false }),
        { mode: 0o600 },
      );
      summary.collections++;
    }
  }
  return summary;
}

/** The documents of a `.bson` file of concatenated BSON documents, types kept exactly. */
export function* readBsonFile(bytes: Buffer): Generator<Document> {
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readInt32LE(at);
    if (length < 5 || at + length > bytes.length)
      throw new Error(`a BSON document overruns the file at byte ${at}`);
    yield BSON.deserialize(bytes.subarray(at, at + length), {
      promoteValues: false,
      bsonRegExp: true,
    });
    at += length;
  }
}

/**
 * Loads a directory in mongodump's layout (as `exportDump` writes it, or mongodump of another
 * deployment): each `<db>/<collection>.bson` with the indexes of its metadata file. Documents
 * whose `_id` (or a unique key) is already there are skipped, as mongorestore does.
 */
export async function importDump(
  client: MongoClient,
  dir: string,
): Promise<DumpSummary & { skipped: number }> {
  const summary = { collections: 0, documents: 0, skipped: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || systemDatabases.has(entry.name)) continue;
    const db = client.db(entry.name);
    const files = await readdir(join(dir, entry.name));
    for (const file of files.filter((name) => name.endsWith('.bson'))) {
      const name = file.slice(0, -'.bson'.length);
      const coll = db.collection(name);
      const metadataFile = files.includes(`${name}.metadata.json`)
        ? join(dir, entry.name, `${name}.metadata.json`)
        : undefined;
      if (metadataFile) {
        const metadata = EJSON.parse(await readFile(metadataFile, 'utf8'), { relaxed: false });
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
      for (const doc of readBsonFile(await readFile(join(dir, entry.name, file)))) {
        batch.push(doc);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      summary.collections++;
    }
  }
  return summary;
}
