import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BSON, EJSON } from 'bson';
import type { Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionFileStem } from '../../src/db/dump-names.js';
import { type EmbeddedClient, startEmbeddedClient } from '../support/mongo.js';
import { runCli } from '../support/processes.js';

// What mongodump names the files of these collections: Go's url.PathEscape, which keeps letters,
// digits, `-_.~` and `$&+:=@` and writes every other UTF-8 byte as %XX (Go's shouldEscape for a
// path segment, which mongo-tools' EscapeCollectionName calls).
const mongodumpStems: [string, string][] = [
  ['../../x', '..%2F..%2Fx'],
  ['a/../../../x', 'a%2F..%2F..%2F..%2Fx'],
  ['100%', '100%25'],
  ['odd: ü?#;, [1]&=+@~', 'odd:%20%C3%BC%3F%23%3B%2C%20%5B1%5D&=+@~'],
];
// 120 characters whose encoding (600 bytes) is longer than a file name may be: mongodump keeps
// 208 bytes of it, then %24 and the base64url SHA-1 of the name (mongodump's outputPath).
const longName = 'ü%/ '.repeat(30);

let source: EmbeddedClient;
let target: EmbeddedClient;
let from: MongoClient;
let to: MongoClient;
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dump-names-test-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  [source, target] = await Promise.all([startEmbeddedClient(), startEmbeddedClient()]);
  [from, to] = [source.client, target.client];
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** `publish-gateway db <args>` against the database at `uri`, as an operator runs it. */
const db = (uri: string, ...args: string[]) =>
  runCli(['db', ...args], { MONGODB_URI: uri, LOG_LEVEL: 'silent' });

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Every database of the target but MongoDB's own, with its collections and their documents. */
async function targetContents(): Promise<Record<string, Record<string, Document[]>>> {
  const contents: Record<string, Record<string, Document[]>> = {};
  const { databases } = await to.db('admin').admin().listDatabases({ nameOnly: true });
  for (const { name } of databases.filter((d) => !['admin', 'local', 'config'].includes(d.name))) {
    contents[name] = {};
    for (const coll of await to.db(name).listCollections().toArray())
      contents[name][coll.name] = await to.db(name).collection(coll.name).find().toArray();
  }
  return contents;
}

describe('collection names in file names, as mongodump writes them', () => {
  it('encodes names as Go url.PathEscape does, and shortens a long one to 238 bytes', () => {
    for (const [name, stem] of mongodumpStems) expect(collectionFileStem(name)).toBe(stem);
    const long = collectionFileStem(longName);
    expect(long).toHaveLength(238);
    expect(long.slice(0, 208)).toBe(encodeURIComponent(longName).slice(0, 208));
    expect(long.slice(208, 211)).toBe('%24');
    expect(long.slice(211)).toMatch(/^[A-Za-z0-9_-]{27}$/);
  });

  it('exports every odd name inside --out and imports it back under the same name', async () => {
    const names = [...mongodumpStems.map(([name]) => name), longName];
    const app = from.db('app');
    for (const [n, name] of names.entries())
      await app
        .collection(name)
        .insertMany([{ _id: n as never, name }, { _id: (-n - 1) as never }]);
    await app.collection(longName).createIndex({ name: 1 }, { name: 'by_name' });

    const parent = await tempDir();
    const out = join(parent, 'out');
    const exported = await db(source.uri, 'export', '--out', out);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({
      export: out,
      collections: names.length,
      documents: 2 * names.length,
    });
    // Nothing beside --out; inside it, mongodump's file names.
    expect(await readdir(parent)).toEqual(['out']);
    expect(await filesUnder(out)).toEqual(
      names
        .flatMap((name) => {
          const stem = join('app', collectionFileStem(name));
          return [`${stem}.bson`, `${stem}.metadata.json`];
        })
        .sort(),
    );

    const imported = await db(target.uri, 'import', out);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ collections: names.length, skipped: 0 });
    const copy = await targetContents();
    expect(Object.keys(copy)).toEqual(['app']);
    expect(Object.keys(copy.app ?? {}).sort()).toEqual([...names].sort());
    for (const name of names)
      expect(copy.app?.[name]).toEqual(await app.collection(name).find().toArray());
    const indexes = await to.db('app').collection(longName).listIndexes().toArray();
    expect(indexes.map((index) => index.name)).toEqual(['_id_', 'by_name']);
    await to.db('app').dropDatabase();
  });
});

describe('an --out directory with links planted in it', () => {
  it('refuses to write through them, on one line, leaving what they lead to as it was', async () => {
    await from.db('planted').collection<{ _id: number }>('x').insertOne({ _id: 1 });
    const outside = await tempDir();
    await writeFile(join(outside, 'precious'), 'kept');
    for (const plant of [
      async (out: string) => symlink(outside, join(out, 'planted')),
      async (out: string) => {
        await mkdir(join(out, 'planted'));
        await symlink(join(outside, 'precious'), join(out, 'planted', 'x.bson'));
      },
    ]) {
      const out = await tempDir();
      await plant(out);
      const refused = await db(source.uri, 'export', '--out', out);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^\S+ is a link or not a plain file or directory; a dump is only those\n$/,
      );
      expect(await filesUnder(outside)).toEqual(['precious']);
      expect(await readFile(join(outside, 'precious'), 'utf8')).toBe('kept');
    }
    await from.db('planted').dropDatabase();
  });
});

describe('a crafted dump directory', () => {
  /** A dump with one sound collection, `app/fine`, then what `craft` adds to it. */
  async function craftedDump(craft: (appDir: string, dump: string) => Promise<void>) {
    const dump = await tempDir();
    const appDir = join(dump, 'app');
    await mkdir(appDir);
    await writeFile(join(appDir, 'fine.bson'), BSON.serialize({ _id: 1 }));
    await craft(appDir, dump);
    return dump;
  }

  const metadataNaming = (collectionName: string) =>
    EJSON.stringify({ indexes: [], collectionName, type: 'collection', options: {} });

  const crafted: [string, (appDir: string, dump: string) => Promise<void>][] = [
    [
      'metadata naming a climbing collection its file does not hold',
      async (appDir) => {
        await writeFile(join(appDir, 'x.bson'), BSON.serialize({ _id: 2 }));
        await writeFile(join(appDir, 'x.metadata.json'), metadataNaming('../../x'));
      },
    ],
    [
      'a climbing file name whose metadata names another collection',
      async (appDir) => {
        await writeFile(join(appDir, '..%2F..%2Fx.bson'), BSON.serialize({ _id: 2 }));
        await writeFile(join(appDir, '..%2F..%2Fx.metadata.json'), metadataNaming('x'));
      },
    ],
    [
      'a link to a file outside the dump',
      async (appDir) => {
        const outside = join(await tempDir(), 'outside.bson');
        await writeFile(outside, BSON.serialize({ _id: 3 }));
        await symlink(outside, join(appDir, 'secret.bson'));
      },
    ],
    [
      'a link to a directory outside the dump',
      async (_appDir, dump) => {
        await symlink(tmpdir(), join(dump, 'elsewhere'));
      },
    ],
    [
      'a database directory of dots',
      async (_appDir, dump) => {
        await mkdir(join(dump, '...'));
        await writeFile(join(dump, '...', 'x.bson'), BSON.serialize({ _id: 4 }));
      },
    ],
    [
      'a shortened file name without the metadata that names its collection',
      async (appDir) => {
        await writeFile(join(appDir, `${collectionFileStem(longName)}.bson`), '');
      },
    ],
    [
      'a file name that is no percent-encoding',
      async (appDir) => {
        await writeFile(join(appDir, '%zz.bson'), BSON.serialize({ _id: 5 }));
      },
    ],
  ];

  it.each(crafted)('is refused, on one line and with nothing written: %s', async (_, craft) => {
    const dump = await craftedDump(craft);
    const refused = await db(target.uri, 'import', dump);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(dump);
    expect(await targetContents()).toEqual({});
  });

  it('loads the same dump once the crafted part is gone', async () => {
    const dump = await craftedDump(async () => {});
    const loaded = await db(target.uri, 'import', dump);
    expect(loaded.code).toBe(0);
    expect(await targetContents()).toEqual({ app: { fine: [{ _id: 1 }] } });
    await to.db('app').dropDatabase();
  });
});
