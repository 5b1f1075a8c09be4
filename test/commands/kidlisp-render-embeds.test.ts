import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFrames } from '../../src/domain/kidlisp/render/frames.js';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';
import { requireBuiltCli } from '../support/processes.js';

/** `kidlisp render` draws $code embeds from the service's database when there is one. */
let dir: string;
let mongo: TestMongo;
const dbName = uniqueDbName('kidlisp_render');
const EMBED = '(wipe lime) (ink red) (box 1 1 3 3)';
const PROGRAM = '(wipe black)\n($lft 0 0 w/2 h)';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kidlisp-embeds-'));
  await writeFile(join(dir, 'host.lisp'), PROGRAM);
  mongo = await startTestMongo();
  const client = await new MongoClient(mongo.uri).connect();
  await client
    .db(dbName)
    .collection('kidlisp')
    .insertOne({ code: 'lft', source: EMBED, when: new Date() });
  await client.close();
});

afterAll(async () => {
  await mongo?.stop();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>) {
  const { MONGODB_URI: _uri, DATA_DIR: _dataDir, ...inherited } = process.env;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [requireBuiltCli(), 'kidlisp', 'render', ...args],
      { encoding: 'utf8', env: { ...inherited, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? -1), stdout, stderr }),
    );
  });
}

const sha = (bytes: Uint8ClampedArray) => createHash('sha256').update(bytes).digest('hex');

describe('publish-gateway kidlisp render with embeds', () => {
  it('loads $code embeds from MONGODB_URI and draws the bytes the player draws', async () => {
    const ran = await cli(
      [join(dir, 'host.lisp'), '--width', '16', '--height', '16', '--frames', '2', '--sha256'],
      {
        MONGODB_URI: mongo.uri,
        MONGODB_DB: dbName,
      },
    );
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const expected = renderFrames({
      source: PROGRAM,
      width: 16,
      height: 16,
      frames: 2,
      embeds: { lft: EMBED },
    }).frames.map((frame) => sha(frame.rgba));
    expect(ran.stdout.trim().split('\n')).toEqual(expected);
  });

  it('without a database, names the embed as not available and never creates one', async () => {
    const dataDir = join(dir, 'no-database');
    const ran = await cli([join(dir, 'host.lisp'), '--width', '16', '--height', '16', '--sha256'], {
      DATA_DIR: dataDir,
    });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('$lft (embeds are not available here)');
    expect(existsSync(join(dataDir, 'db'))).toBe(false);
  });
});
