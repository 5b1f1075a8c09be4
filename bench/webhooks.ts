import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { addHook } from '../src/operations/events/webhooks/hooks.js';
import { startService } from '../src/service.js';

export const RECEIVERS = 100;

/** The fan-out of `work.published` to RECEIVERS webhooks, beside the same POSTs sent directly. */
export interface WebhookFanOut {
  name: string;
  events: number;
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Number((sorted[Math.max(0, index)] as number).toFixed(1));
}

const summary = (name: string, events: number, latencies: number[]): WebhookFanOut => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    events,
    deliveries: latencies.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
  };
};

/** RECEIVERS servers on 127.0.0.1 that note when each body arrived. */
async function startReceivers(onBody: () => void): Promise<{ urls: string[]; servers: Server[] }> {
  const servers = await Promise.all(
    Array.from({ length: RECEIVERS }, async () => {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          onBody();
          res.writeHead(204).end();
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const urls = servers.map(
    (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
  );
  return { urls, servers };
}

/** The baseline: the same body POSTed straight to every receiver, 16 at a time, a new connection each. */
async function postToAll(urls: string[], body: string): Promise<void> {
  const queue = [...urls];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let url = queue.shift(); url; url = queue.shift())
        await new Promise<void>((resolve, reject) => {
          const req = request(
            url,
            { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
    }),
  );
}

/**
 * `rounds` works published one at a time, each delivered to RECEIVERS hooks: latency from
 * sending the publish to each receiver's arrival; interleaved with a baseline round that POSTs the
 * same body to the same receivers itself (what the network and node:http cost, no queue).
 */
export async function benchWebhooks(options: { rounds: number }): Promise<WebhookFanOut[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-hooks-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PUBLISH: '1000000000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const service = await startService(config, createLogger('silent'));
  let roundStart = 0;
  let pending = 0;
  let settle: () => void = () => undefined;
  const webhookLatencies: number[] = [];
  const baselineLatencies: number[] = [];
  let measuring: number[] = webhookLatencies;
  const { urls, servers } = await startReceivers(() => {
    measuring.push(performance.now() - roundStart);
    pending -= 1;
    if (pending === 0) settle();
  });
  const arrived = () =>
    new Promise<void>((resolve) => {
      settle = resolve;
    });
  try {
    for (const url of urls) await addHook(service.services.events.collections, { url });
    for (let round = 0; round < options.rounds; round++) {
      // Baseline: the same fan-out, sent directly.
      measuring = baselineLatencies;
      pending = RECEIVERS;
      let done = arrived();
      roundStart = performance.now();
      await postToAll(urls, JSON.stringify({ type: 'work.published', data: { round } }));
      await done;
      // The service: publish, then wait for every receiver.
      measuring = webhookLatencies;
      pending = RECEIVERS;
      done = arrived();
      roundStart = performance.now();
      const answer = await fetch(`${service.url}/api/store-kidlisp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          source: `(wipe ${round % 256}) ; webhook bench ${round} ${Date.now()}`,
        }),
      });
      if (answer.status !== 201) throw new Error(`publish answered ${answer.status}`);
      await answer.arrayBuffer();
      await done;
    }
  } finally {
    await service.close();
    for (const server of servers) server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return [
    summary(
      `POST to ${RECEIVERS} receivers directly (baseline)`,
      options.rounds,
      baselineLatencies,
    ),
    summary(`work.published to ${RECEIVERS} webhooks`, options.rounds, webhookLatencies),
  ];
}

export function printWebhookFanOut(results: WebhookFanOut[]): string {
  const [baseline] = results;
  const lines = results.map(
    (r) =>
      `| ${r.name} | ${r.events} | ${r.deliveries} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${baseline ? (r.p99Ms / baseline.p99Ms).toFixed(1) : ''} |`,
  );
  return [
    `| webhook fan-out, publish to delivery | events | deliveries | p50 ms | p99 ms | max ms | p99 ratio to baseline |`,
    '|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
