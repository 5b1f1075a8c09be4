import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { collectionNames } from '../../src/db/collections.js';
import { createLogger } from '../../src/logger.js';
import { type RunningService, startService } from '../../src/service.js';
import { pngPixel } from '../e2e/support/pixels.js';
import { recordCommands } from '../support/commands.js';
import { startTestMongo, type TestMongo, uniqueDbName } from '../support/mongo.js';

/**
 * Thumbnails drawn at publish with their embeds, kept in object storage across a restart, and a
 * render queue one client cannot fill: each service here is a real one over HTTP, and two of them
 * in turn share one database and one data directory, as a restarted `npm start` does.
 */
let mongo: TestMongo;
let dataDir: string;
let dbName: string;
const running: RunningService[] = [];

/** A service over the shared database; `monitorCommands` lets a test see the commands it sends. */
async function start({ monitorCommands = false } = {}): Promise<RunningService> {
  const separator = mongo.uri.includes('?') ? '&' : '?';
  const config = loadConfig({
    PORT: '0',
    MONGODB_URI: monitorCommands ? `${mongo.uri}${separator}monitorCommands=true` : mongo.uri,
    MONGODB_DB: dbName,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLISH: '1000000',
  });
  const service = await startService(config, createLogger(config.logLevel));
  running.push(service);
  return service;
}

async function stop(service: RunningService) {
  running.splice(running.indexOf(service), 1);
  await service.close();
}

beforeAll(async () => {
  mongo = await startTestMongo();
  dataDir = await mkdtemp(join(tmpdir(), 'thumbnail-store-'));
  dbName = uniqueDbName('thumbnail_store');
});

afterAll(async () => {
  for (const service of running) await service.close();
  await mongo?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function publish(url: string, source: string): Promise<string> {
  const response = await fetch(`${url}/api/store-kidlisp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { code: string }).code;
}

/** kidlisp_renders_total by purpose, as /metrics shows it. */
async function rendersOf(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, purpose, value] of text.matchAll(
    /^kidlisp_renders_total\{purpose="(\w+)"\} (\d+)$/gm,
  ))
    counts[purpose as string] = Number(value);
  return counts;
}

async function until<T>(read: () => Promise<T | null | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not there within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const homeImages = async (url: string) => {
  const response = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
  const body = await response.text();
  return {
    etag: response.headers.get('etag'),
    images: [...body.matchAll(/src="(\/thumbnail\/[^"]+)"/g)].map((m) =>
      (m[1] as string).replaceAll('&amp;', '&'),
    ),
  };
};

describe('thumbnails drawn at publish and kept', () => {
  let codes: { left: string; host: string; heavy: string };

  it('draws a new work in the background with its embed, and / shows it by a URL that changes its ETag', async () => {
    const service = await start();
    const left = await publish(service.url, '(wipe lime)');
    const host = await publish(service.url, `(wipe black)\n($${left} 0 0 w/2 h)`);
    // Enough work (half a second or more) that its picture is not drawn when / is first read.
    const heavy = await publish(service.url, '(wipe maroon)\n(repeat 2 (repeat 300 (point 1 1)))');
    codes = { left, host, heavy };
    const before = await homeImages(service.url);
    expect(before.images).toContain(`/thumbnail/${heavy}.png`);

    const stored = await until(
      () => service.services.db.thumbnails.findOne({ _id: heavy }),
      20_000,
    );
    await until(() => service.services.db.thumbnails.findOne({ _id: host }), 20_000);
    const after = await homeImages(service.url);
    expect(after.images).toContain(`/thumbnail/${heavy}.png?v=${stored.key.slice(0, 16)}`);
    expect(after.etag).not.toBe(before.etag);

    const picture = await fetch(`${service.url}/thumbnail/${host}.png`);
    expect(picture.status).toBe(200);
    const png = Buffer.from(await picture.arrayBuffer());
    // The embed fills the left half; the host's black the right.
    expect(await pngPixel(png, 20, 128)).toEqual([0, 255, 0, 255]);
    expect(await pngPixel(png, 230, 128)).toEqual([0, 0, 0, 255]);
    // Each new work drawn once, at publish; the requests above drew nothing more.
    expect(await rendersOf(service.url)).toEqual({ thumbnail: 3 });
    await stop(service);
  }, 60_000);

  it('after a restart, / and every thumbnail on it answer at once, none drawn again', async () => {
    const service = await start({ monitorCommands: true });
    const { images } = await homeImages(service.url);
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const image of images) {
      const response = await fetch(`${service.url}${image}`);
      expect(response.status, image).toBe(200);
    }
    const host = await fetch(`${service.url}/thumbnail/${codes.host}.png`);
    expect(await pngPixel(Buffer.from(await host.arrayBuffer()), 20, 128)).toEqual([
      0, 255, 0, 255,
    ]);
    expect(await rendersOf(service.url)).toEqual({});
    // A picture read once is answered from memory: neither its record nor storage is read again.
    const commands = recordCommands(service.services.db.client);
    const again = await fetch(`${service.url}/thumbnail/${codes.host}.png`);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(host.headers.get('etag'));
    const read = commands.commands().map(({ command }) => command.find);
    commands.stop();
    expect(read).not.toContain(collectionNames.thumbnails);
    await stop(service);
  }, 60_000);
});

describe('the render queue under one greedy client', () => {
  it('runs two of its twelve heavy renders at a time, refuses the rest past 5 s with 429, and draws a new work meanwhile', async () => {
    const service = await start();
    const heavyRender = () =>
      fetch(`${service.url}/api/render-kidlisp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          source: '(wipe navy) (ink rainbow) (repeat 400 (circle ? ? 30)) (blur 3)',
          width: 512,
          height: 512,
          frames: [0, 1, 2, 3, 4, 5, 6, 7],
        }),
      });
    const renders = Array.from({ length: 12 }, heavyRender);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const published = Date.now();
    const code = await publish(service.url, '(wipe teal) (ink white) (box 10 10 50 50)');
    await until(() => service.services.db.thumbnails.findOne({ _id: code }), 6_000);
    const drawnIn = Date.now() - published;

    const answers = await Promise.all(renders);
    const statuses = answers.map((answer) => answer.status);
    // 422 is a render that overran its own time budget (RENDER_TOO_SLOW) on a busy machine.
    expect(statuses.filter((status) => ![200, 422, 429].includes(status))).toEqual([]);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    for (const answer of answers.filter((one) => one.status === 429)) {
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(await answer.json()).toMatchObject({ code: 'RATE_LIMITED' });
    }
    expect(drawnIn).toBeLessThan(6_000);
    await stop(service);
  }, 120_000);
});
