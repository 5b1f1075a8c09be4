import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient } from '../support/http-client.js';

/** Oversized headers and bodies are refused; a client that trickles its body is cut off. */

const REQUEST_TIMEOUT_MS = 2_000;
let app: TestApp;
let client: HttpClient;
let port: number;

beforeAll(async () => {
  app = await startTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
  client = createHttpClient(app.url);
  port = Number(new URL(app.url).port);
});

afterAll(async () => {
  client?.close();
  await app?.close();
});

const ONE_MIB = 1_048_576;

/** Sends raw bytes on a fresh connection and collects what comes back until the server closes it. */
function rawExchange(write: (socket: Socket) => void, giveUpMs: number) {
  return new Promise<{ text: string; closedAfterMs: number; closedByServer: boolean }>(
    (resolve) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let text = '';
      let closedByServer = true;
      const giveUp = setTimeout(() => {
        closedByServer = false;
        socket.destroy();
      }, giveUpMs);
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve({ text, closedAfterMs: performance.now() - started, closedByServer });
      });
      write(socket);
    },
  );
}

describe('oversized requests', () => {
  it('answers a 20 KB header with 431', async () => {
    const response = await client.get('/api/chat-messages', { 'x-padding': 'p'.repeat(20 * 1024) });
    expect(response.status).toBe(431);
  });

  it('answers a 20 KB URL with 431 (it is part of the header block)', async () => {
    const response = await client.get(`/api/chat-messages?search=${'s'.repeat(20 * 1024)}`);
    expect(response.status).toBe(431);
  });

  it('still serves normal requests after refusing those', async () => {
    expect((await client.get('/api/chat-messages?limit=1')).status).toBe(200);
  });

  it.each([
    '/api/store-kidlisp',
    '/api/store-clock',
    '/api/store-piece',
    '/api/track-media',
  ])('answers a body over 1 MiB on %s with 413 PAYLOAD_TOO_LARGE, contract-shaped', async (path) => {
    const response = await client.post(path, { source: 'x'.repeat(ONE_MIB + 10) });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(response.json.message).toBe(response.json.error);
    expect(typeof response.json.error).toBe('string');
  });

  it('accepts a body just under 1 MiB as far as size goes (the field limit answers instead)', async () => {
    const response = await client.post('/api/store-piece', { source: 'x'.repeat(ONE_MIB - 100) });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'SOURCE_TOO_LONG' });
  });

  it('answers a GraphQL body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await client.graphql(
      'mutation ($s: String!) { publishKidlisp(source: $s) { code } }',
      { s: 'x'.repeat(2 * ONE_MIB) },
    );
    expect(response.status).toBe(413);
    expect(response.json.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it.each([
    '/api/store-kidlisp',
    '/graphql',
  ])('refuses an over-long chunked body (no Content-Length) on %s with 413', async (path) => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"source":"');
      for (let i = 0; i < 20; i++) req.write(chunk); // 1.25 MiB, chunked
      req.end('"}');
    });
    expect(status).toBe(413);
  });
});

describe.concurrent(`a slow client (REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS})`, () => {
  it.each([
    '/api/store-kidlisp',
    '/graphql',
  ])('sending its body a byte every 500 ms to %s is cut off (408 or closed) within a bounded time', async (path) => {
    const body = JSON.stringify({ source: '(wipe blue)'.padEnd(60, ' ') });
    let timer: NodeJS.Timeout | undefined;
    const result = await rawExchange((socket) => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      let sent = 0;
      timer = setInterval(() => {
        if (socket.destroyed || sent >= body.length) return;
        socket.write(body[sent++] as string);
      }, 500);
    }, 15_000);
    clearInterval(timer);
    expect(result.closedByServer, 'the server never closed the connection').toBe(true);
    // The whole body would take 30 s; the request timeout ends it after ~2 s (Node checks it on a sweep).
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 2 + 1_000);
    if (result.text) expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('sending its headers slowly is cut off too', async () => {
    let timer: NodeJS.Timeout | undefined;
    const result = await rawExchange((socket) => {
      socket.write('GET /api/chat-messages HTTP/1.1\r\nHost: localhost\r\n');
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write('X');
      }, 500);
    }, 15_000);
    clearInterval(timer);
    expect(result.closedByServer).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS * 2 + 1_000);
    if (result.text) expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('leaves the service answering other clients meanwhile', async () => {
    // A slow client of this test's own, so the polling surely overlaps one, whatever the scheduling.
    let timer: NodeJS.Timeout | undefined;
    let slowDone = false;
    const slow = rawExchange((socket) => {
      socket.write(
        'POST /api/store-kidlisp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      );
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(' ');
      }, 500);
    }, 15_000).finally(() => {
      slowDone = true;
      clearInterval(timer);
    });
    const polls: { status: number; ms: number }[] = [];
    const started = performance.now();
    // Poll for the whole window the slow client is held open (until the server cuts it off).
    while (!slowDone && performance.now() - started < 15_000) {
      const response = await client.send('/healthz', { timeoutMs: 2_000 });
      polls.push({ status: response.status, ms: response.ms });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await slow;
    expect(result.closedByServer).toBe(true);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(polls.length, 'polls during the slow-client window').toBeGreaterThanOrEqual(
      REQUEST_TIMEOUT_MS / 250,
    );
    for (const [i, poll] of polls.entries()) {
      expect(poll.status, `poll ${i}`).toBe(200);
      expect(poll.ms, `poll ${i} took ${Math.round(poll.ms)} ms`).toBeLessThan(250);
    }
  });
});
