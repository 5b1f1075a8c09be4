import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EJSON } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../src/db/embedded/index.js';

// MongoDB's own shell against `publish-gateway db`'s server: what an operator types.
const run = promisify(execFile);
const MONGOSH = join(process.cwd(), 'node_modules', '.bin', 'mongosh');

let dir: string;
let server: EmbeddedMongo;
let uri: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mongosh-test-'));
  const endpointFile = join(dir, 'endpoint.json');
  server = await startEmbeddedMongo({ dataDir: join(dir, 'db'), authenticate: true, endpointFile });
  ({ uri } = JSON.parse(await readFile(endpointFile, 'utf8')));
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs a script in mongosh (its home in the test's directory) and returns what it printed. */
function mongosh(connection: string, script: string) {
  return run(MONGOSH, [connection, '--quiet', '--norc', '--eval', script], {
    env: { ...process.env, HOME: dir },
    timeout: 60_000,
  });
}

describe('mongosh', () => {
  it("answers the shell's helpers: stats, server status, host info, explain, projections, hints", async () => {
    const script = `
      const app = db.getSiblingDB('app');
      app.notes.insertMany([{ _id: 1, text: 'a', n: 1 }, { _id: 2, text: 'b', n: 2 }]);
      app.notes.createIndex({ n: 1 });
      let hint;
      try { app.notes.find().hint('no_such_index').toArray(); } catch (e) { hint = e.codeName; }
      print(EJSON.stringify({
        dbStats: app.stats(),
        collStats: app.notes.stats(),
        serverStatus: db.serverStatus(),
        hostInfo: db.hostInfo(),
        databases: db.adminCommand({ listDatabases: 1 }).databases,
        projected: app.notes.find({ _id: 1 }, { text: 1 }).toArray(),
        explain: app.notes.find({ n: { $gte: 1 } }).explain('executionStats'),
        hint,
      }));`;
    const { stdout } = await mongosh(uri, script);
    const out = EJSON.parse(stdout.trim().split('\n').at(-1) as string, { relaxed: true });
    expect(out.dbStats).toMatchObject({ db: 'app', collections: 1, objects: 2, ok: 1 });
    expect(out.collStats).toMatchObject({ ns: 'app.notes', count: 2, nindexes: 2 });
    expect(out.serverStatus.uptime).toBeGreaterThanOrEqual(0);
    expect(out.serverStatus.connections.current).toBeGreaterThanOrEqual(1);
    expect(out.serverStatus.opcounters.insert).toBeGreaterThanOrEqual(2);
    expect(out.serverStatus.mem.resident).toBeGreaterThan(0);
    expect(out.hostInfo.system.numCores).toBeGreaterThan(0);
    expect(
      out.databases.find((d: { name: string }) => d.name === 'app').sizeOnDisk,
    ).toBeGreaterThan(0);
    expect(out.projected).toEqual([{ _id: 1, text: 'a' }]);
    expect(Object.keys(out.projected[0])).toEqual(['_id', 'text']);
    expect(out.explain.queryPlanner.winningPlan.inputStage.indexName).toBe('n_1');
    expect(out.explain.executionStats).toMatchObject({
      nReturned: 2,
      totalKeysExamined: 2,
      totalDocsExamined: 2,
    });
    expect(out.hint).toBe('BadValue');
  });

  it('is refused without the credentials', async () => {
    const anonymous = `mongodb://127.0.0.1:${server.port}/?directConnection=true`;
    const failure = await mongosh(anonymous, "db.getSiblingDB('app').notes.findOne()").then(
      () => expect.unreachable('mongosh should have failed'),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure.code).not.toBe(0);
    expect(failure.stderr + failure.stdout).toMatch(/requires authentication/);
  });
});
