import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1: records every request and answers what `answer` says. */
export interface Receiver {
  url: string;
  received: Received[];
  /** The status of the n-th request (0-based); 200 unless set. */
  answer: (n: number) => number;
  /** Every request verified with the `standardwebhooks` package under `secret`; throws otherwise. */
  verifyAll(secret: string): Record<string, any>[];
  /** The distinct webhook-ids received. */
  ids(): Set<string>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { answer } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = received.length;
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      res.writeHead(receiver.answer(n), { 'content-type': 'text/plain' }).end(`answer ${n}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    verifyAll(secret: string) {
      const webhook = new Webhook(secret);
      return received.map(
        (one) =>
          webhook.verify(one.body, one.headers as Record<string, string>) as Record<string, any>,
      );
    },
    ids: () => new Set(received.map((one) => String(one.headers['webhook-id']))),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

/** Polls until `find` gives a value. */
export async function until<T>(
  what: string,
  find: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
