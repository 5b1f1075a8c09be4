import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startService } from '../src/service.js';

export const SUBSCRIBERS = 1_000;
export const MESSAGES_PER_SECOND = 20;

/** One fan-out case: what the subscribers saw. */
export interface FanOutResult {
  name: string;
  subscribers: number;
  messages: number;
  /** Deliveries that arrived (subscribers × messages when none is lost). */
  delivered: number;
  /** Deliveries of a message a subscriber already had, or out of order. */
  duplicatesOrDisorder: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Resident memory of the whole process (service and the 1,000 clients) while they are connected. */
  rssMiB: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Number((sorted[Math.max(0, index)] as number).toFixed(1));
}

/** `subscribers` SSE clients on one agent; each records when it got message `seq` (from its text). */
async function connectSubscribers(url: string, subscribers: number, sentAt: Map<number, number>) {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const latencies: number[] = [];
  let delivered = 0;
  let disorder = 0;
  const responses: IncomingMessage[] = [];
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      let last = -1;
      let buffer = '';
      const request = get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`subscriber answered ${res.statusCode}`));
          res.resume();
          return;
        }
        responses.push(res);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let newline = buffer.indexOf('\n');
          while (newline !== -1) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            newline = buffer.indexOf('\n');
            const match = /"text":"fan-out (\d+)"/.exec(line);
            if (!line.startsWith('data: ') || !match) continue;
            const seq = Number(match[1]);
            delivered++;
            if (seq <= last) disorder++;
            last = seq;
            const sent = sentAt.get(seq);
            if (sent !== undefined) latencies.push(now - sent);
          }
        });
        // For the service: headers come once the subscriber is registered and its source ready.
        resolve();
      });
      request.on('error', reject);
    });
  for (let i = 0; i < subscribers; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, subscribers - i) }, open));
  return {
    result: () => ({ latencies, delivered, disorder }),
    close: () => {
      for (const res of responses) res.destroy();
      agent.destroy();
    },
  };
}

/** Sends `count` messages at `perSecond`, each through `send`, recording when each was sent. */
async function paced(
  count: number,
  perSecond: number,
  sentAt: Map<number, number>,
  send: (seq: number) => Promise<void>,
) {
  const start = performance.now();
  for (let seq = 0; seq < count; seq++) {
    const due = start + (seq * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt.set(seq, performance.now());
    await send(seq);
  }
}

async function measure(
  name: string,
  url: string,
  messages: number,
  send: (seq: number) => Promise<void>,
  settle: () => Promise<void>,
): Promise<FanOutResult> {
  const sentAt = new Map<number, number>();
  const subscribers = await connectSubscribers(url, SUBSCRIBERS, sentAt);
  await sleep(500);
  const connected = process.memoryUsage().rss;
  await paced(messages, MESSAGES_PER_SECOND, sentAt, send);
  // Wait for the last deliveries (bounded: a lost message must not hang the benchmark).
  const deadline = performance.now() + 10_000;
  while (subscribers.result().delivered < SUBSCRIBERS * messages && performance.now() < deadline)
    await sleep(50);
  const { latencies, delivered, disorder } = subscribers.result();
  subscribers.close();
  await settle();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    subscribers: SUBSCRIBERS,
    messages,
    delivered,
    duplicatesOrDisorder: disorder + Math.max(0, delivered - SUBSCRIBERS * messages),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
    rssMiB: mib(connected),
  };
}

/** The baseline: node:http writing each message to every open response as it is sent, nothing else. */
async function bareBroadcaster() {
  const clients = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': live\n\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    send: async (seq: number) => {
      const event = `id: ${seq}\ndata: ${JSON.stringify({ text: `fan-out ${seq}` })}\n\n`;
      for (const res of clients) res.write(event);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Fan-out: 1,000 concurrent REST stream subscribers of one channel on one instance, 20 messages
 * per second written into chat-system with the driver (as the chat server would); delivery
 * latency from the insert to each subscriber, and resident memory. The baseline, in the same
 * process and on the same database, stores each message the same way and then writes it at once
 * to 1,000 bare node:http responses: what pushing costs with no polling, lookups or framework.
 */
export async function benchChatStream(options: { seconds: number }): Promise<FanOutResult[]> {
  const messages = Math.max(5, Math.round(options.seconds * MESSAGES_PER_SECOND));
  const results: FanOutResult[] = [];
  // The service's default (change streams where the database has them, with the baseline), then
  // the polling fallback at its default interval and at half of it: what polling costs.
  for (const [source, interval] of [
    ['auto', undefined],
    ['polling', undefined],
    ['polling', 50],
  ] as const)
    results.push(...(await benchService(messages, source, interval, source === 'auto')));
  return results;
}

const fanOutMessage = (seq: number) => ({
  _id: new ObjectId(),
  text: `fan-out ${seq}`,
  when: new Date(),
  user: `account-${seq % 10}`,
});

async function benchService(
  messages: number,
  source: 'auto' | 'polling',
  pollIntervalMs: number | undefined,
  withBaseline: boolean,
): Promise<FanOutResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-stream-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SUBSCRIBERS_MAX: String(SUBSCRIBERS * 2),
    SUBSCRIBERS_PER_CLIENT: String(SUBSCRIBERS * 2),
    CHAT_LIVE_SOURCE: source,
    ...(pollIntervalMs ? { CHAT_POLL_INTERVAL_MS: String(pollIntervalMs) } : {}),
  });
  const service = await startService(config, createLogger('silent'));
  const results: FanOutResult[] = [];
  try {
    const { db, chatHub } = service.services;
    if (withBaseline) {
      const baseline = await bareBroadcaster();
      try {
        results.push(
          await measure(
            'insert, then node:http broadcast (baseline)',
            baseline.url,
            messages,
            async (seq) => {
              // Another channel: the service's own source has no subscriber and reads nothing.
              await db.chat.clock.insertOne(fanOutMessage(seq));
              await baseline.send(seq);
            },
            async () => {},
          ),
        );
      } finally {
        await baseline.close();
      }
    }
    results.push(
      await measure(
        chatHub.mode === 'polling'
          ? `GET /api/chat-messages/stream (polling, ${config.liveChat.pollIntervalMs} ms interval)`
          : `GET /api/chat-messages/stream (${chatHub.mode})`,
        `${service.url}/api/chat-messages/stream?instance=system`,
        messages,
        async (seq) => {
          await db.chat.system.insertOne(fanOutMessage(seq));
        },
        async () => {
          while (chatHub.counts().subscribers > 0) await sleep(50);
        },
      ),
    );
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return results;
}

export function printFanOut(results: FanOutResult[]): string {
  const lines = results.map(
    (r) =>
      `| ${r.name} | ${r.subscribers} | ${r.messages} | ${r.delivered} | ${r.duplicatesOrDisorder} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${r.rssMiB} |`,
  );
  return [
    `| fan-out, ${MESSAGES_PER_SECOND} messages/s | subscribers | messages | delivered | repeated or out of order | p50 ms | p99 ms | max ms | process RSS MiB, 1,000 connected |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
