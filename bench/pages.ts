import { mkdtemp, rm } from 'node:fs/promises';
import type { OutgoingHttpHeaders, RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { KIDLISP_MAX_LENGTH } from '../src/domain/kidlisp/index.js';
import { createLogger } from '../src/logger.js';
import { encodePublishedCursor } from '../src/operations/items/cursor.js';
import { type RunningService, startService } from '../src/service.js';
import { compare } from './chat.js';
import { type BenchRow, listen, row } from './report.js';

/** Works on the home page's database: enough that every kind's collection fills a page. */
const HOME_WORKS = 300;

/** A KidLisp program close to the size limit: its page is large and validating it is the costly part. */
function largeProgram(): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < KIDLISP_MAX_LENGTH - 100; i++) {
    const line = `(ink ${i % 255} ${(i * 7) % 255} 0) (line 0 ${i % 200} w ${(i * 3) % 200})`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** The baseline: node:http answering the same bytes with the same headers from memory. */
const sameBytes =
  (body: Buffer, headers: OutgoingHttpHeaders): RequestListener =>
  (_req, res) => {
    res.writeHead(200, headers).end(body);
  };

/**
 * A repeated view of a large KidLisp page (the viewer cache answers it), beside node:http sending
 * the same bytes in the same run; and the same view with a query string, which goes through
 * express and reads the database but is not validated or rendered again.
 */
export async function benchPages(options: { seconds: number }): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-pages-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLISH: '1000000000',
  });
  const service = await startService(config, createLogger('silent'));
  const servers: { close(): Promise<void> }[] = [];
  try {
    const published = await fetch(`${service.url}/api/store-kidlisp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: largeProgram() }),
    });
    const { code } = (await published.json()) as { code: string };
    const path = `/$${code}`;
    const first = await fetch(`${service.url}${path}`);
    const body = Buffer.from(await first.arrayBuffer());
    const headers: OutgoingHttpHeaders = Object.fromEntries(
      [...first.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
    );
    const again = Buffer.from(await (await fetch(`${service.url}${path}`)).arrayBuffer());
    if (!again.equals(body)) throw new Error('pages bench: a repeated view sent other bytes');
    const bytes = await listen(sameBytes(body, headers));
    servers.push(bytes);

    const seconds = options.seconds;
    const [repeated, baseline] = await compare(
      'repeated viewer page',
      { url: `${service.url}${path}`, seconds },
      { url: bytes.url, seconds },
    );
    const [throughExpress, baseline2] = await compare(
      'viewer page through express',
      { url: `${service.url}${path}?via=express`, seconds },
      { url: bytes.url, seconds },
    );
    const home = await benchHomePage(service, seconds);
    servers.push(home.server);
    const size = `${Math.round(body.length / 1024)} KiB`;
    return [
      row(`viewer page (${size}), repeated`, 'node:http, same bytes', repeated, baseline),
      row(
        `viewer page (${size}), with a query (express, database read)`,
        'node:http, same bytes',
        throughExpress,
        baseline2,
      ),
      ...home.rows,
    ];
  } finally {
    for (const server of servers) await server.close();
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `/` among HOME_WORKS works and a few chat messages: repeated (the rendered listing is reused)
 * and uncached (every request a distinct cursor, so the works and chat are read and the page
 * rendered each time), each beside node:http sending the same bytes.
 */
async function benchHomePage(service: RunningService, seconds: number) {
  const serviceUrl = service.url;
  await service.services.db.chat.system.insertMany(
    Array.from({ length: 20 }, (_, i) => ({
      _id: new ObjectId(),
      user: '',
      text: `message ${i} on the home page`,
      when: new Date(Date.now() - (20 - i) * 1_000),
    })),
  );
  for (let i = 0; i < HOME_WORKS; i++) {
    const [path, body] =
      i % 3 === 0
        ? ['/api/store-clock', { source: `c d e f g ; ${i}` }]
        : [
            '/api/store-kidlisp',
            { source: `(wipe ${i % 256} 40 90)\n(ink yellow)\n(box ${i % 200} 8 32 32)` },
          ];
    const published = await fetch(`${serviceUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!published.ok) throw new Error(`pages bench: publishing answered ${published.status}`);
  }
  const first = await fetch(`${serviceUrl}/`);
  const body = Buffer.from(await first.arrayBuffer());
  const headers: OutgoingHttpHeaders = Object.fromEntries(
    [...first.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
  );
  const server = await listen(sameBytes(body, headers));
  // A distinct cursor a request (a position n ms before now, past every work): each one a miss,
  // answered with the first page after it, the same 24 works.
  const now = Date.now() + 60_000;
  const pastCursor = (n: number) =>
    encodePublishedCursor({ sort: 'recent', hits: 0, when: new Date(now - n), id: new ObjectId() });
  let n = 0;
  const [repeated, baseline] = await compare(
    'home page repeated',
    { url: `${serviceUrl}/`, seconds },
    { url: server.url, seconds },
  );
  const [uncached, baseline2] = await compare(
    'home page uncached',
    { url: `${serviceUrl}/`, seconds, path: () => `/?after=${pastCursor(n++)}` },
    { url: server.url, seconds },
  );
  const size = `${Math.round(body.length / 1024)} KiB`;
  return {
    server,
    rows: [
      row(
        `home page / (${size}, 24 of ${HOME_WORKS} works), repeated`,
        'node:http, same bytes',
        repeated,
        baseline,
      ),
      row(
        `home page / (${size}), uncached (works, chat and authors read, page rendered)`,
        'node:http, same bytes',
        uncached,
        baseline2,
      ),
    ],
  };
}
