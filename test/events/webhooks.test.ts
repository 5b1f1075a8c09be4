import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventCollections } from '../../src/operations/events/collections.js';
import { isPrivateAddress } from '../../src/operations/events/webhooks/address-guard.js';
import {
  addHook,
  enableHook,
  listDeliveries,
  removeHook,
  replayDelivery,
  rotateHook,
} from '../../src/operations/events/webhooks/hooks.js';
import { createAuthor, publish } from '../items/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient, type HttpClient, mapConcurrent } from '../support/http-client.js';
import { type Receiver, startReceiver, until } from './receiver.js';

const FAST = {
  EVENTS_POLL_INTERVAL_MS: '50',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05,0.05',
};

let app: TestApp;
let http: HttpClient;
const receivers: Receiver[] = [];
const hooksOf = () => eventCollections(app.db.db);

beforeAll(async () => {
  app = await startTestApp(FAST);
  http = createHttpClient(app.url);
});
// Each test's hooks go with it, so the next test's receivers are the only ones.
afterEach(async () => {
  await hooksOf().hooks.deleteMany({});
});
afterAll(async () => {
  http?.close();
  await app?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiverWithHook(
  answer?: (n: number) => number,
  hook: { events?: string; author?: string } = {},
) {
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  const added = await addHook(hooksOf(), { url: receiver.url, ...hook });
  return { receiver, hook: added };
}

describe('a webhook', () => {
  it('receives work.published, signed by the Standard Webhooks specification', async () => {
    const { receiver, hook } = await receiverWithHook();
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const author = await createAuthor(app, 'hookada');
    const parent = await publish(http, '/api/store-kidlisp', { source: '(wipe 1) ; hook parent' });
    const code = await publish(
      http,
      '/api/store-kidlisp',
      { source: '(wipe 2) ; hook child', remixOf: parent },
      author.auth,
    );
    await until('two deliveries', () => (receiver.received.length >= 2 ? true : undefined));
    const [first, second] = receiver.verifyAll(hook.secret);
    expect(first).toMatchObject({ type: 'work.published', data: { code: parent, author: null } });
    expect(second).toEqual({
      type: 'work.published',
      timestamp: expect.any(String),
      data: {
        kind: 'kidlisp',
        code,
        url: `${app.services.config.publicUrl}/${code}`,
        author: '@hookada',
        remixOf: parent,
        when: expect.any(String),
      },
    });
    const headers = receiver.received[1]?.headers ?? {};
    expect(headers['webhook-id']).toMatch(/^msg_/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(headers['content-type']).toBe('application/json');
    // A forged body fails verification: the signature covers it.
    const forged = receiver.received[1]?.body.replace(code, 'other') as string;
    expect(() =>
      new Webhook(hook.secret).verify(forged, headers as Record<string, string>),
    ).toThrow();
  });

  it('gets the event again with the same webhook-id after failing three times, and the log shows each attempt', async () => {
    const { receiver, hook } = await receiverWithHook((n) => (n < 3 ? 500 : 204));
    const code = await publish(http, '/api/store-clock', { source: 'c d e ; retried' });
    await until('the fourth attempt', () => (receiver.received.length >= 4 ? true : undefined));
    expect(receiver.ids().size).toBe(1);
    expect(receiver.verifyAll(hook.secret).every((one) => one.data.code === code)).toBe(true);
    const [delivery] = await until('the delivered state', async () => {
      const list = await listDeliveries(hooksOf(), hook._id);
      return list[0]?.state === 'delivered' ? list : undefined;
    });
    expect(delivery?.attempts).toBe(4);
    expect(delivery?.log.map((attempt) => attempt.status)).toEqual([500, 500, 500, 204]);
    expect(delivery?.log[0]?.error).toBe('HTTP 500');
    expect(delivery?.log[0]?.body).toBe('answer 0');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(4);
  });

  it('is disabled, saying why, once every retry failed; enabled again, a replay sends the same webhook-id', async () => {
    const { receiver, hook } = await receiverWithHook(() => 503);
    await publish(http, '/api/store-clock', { source: 'c ; never taken' });
    const disabled = await until('the hook disabled', async () => {
      const found = await hooksOf().hooks.findOne({ _id: hook._id });
      return found?.disabled ?? undefined;
    });
    expect(disabled.reason).toMatch(/5 attempts of msg_\S+ failed; the last: HTTP 503/);
    expect(receiver.received).toHaveLength(5);
    const [delivery] = await listDeliveries(hooksOf(), hook._id);
    expect(delivery?.state).toBe('failed');
    // A disabled hook gets nothing new.
    await publish(http, '/api/store-clock', { source: 'c ; while disabled' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(5);
    await expect(replayDelivery(hooksOf(), delivery?._id as string)).rejects.toThrow(/disabled/);
    receiver.answer = () => 200;
    expect(await enableHook(hooksOf(), hook._id)).toBe(true);
    await replayDelivery(hooksOf(), delivery?._id as string);
    await until('the replay', () => (receiver.received.length === 6 ? true : undefined));
    expect(receiver.ids()).toEqual(new Set([delivery?._id]));
  });

  it('sends only the events and author it was added for', async () => {
    await createAuthor(app, 'onlybo');
    const bo = await createAuthor(app, 'onlybo2');
    const { receiver, hook } = await receiverWithHook(undefined, {
      author: '@onlybo2',
      events: 'work.published',
    });
    await publish(http, '/api/store-kidlisp', { source: '(wipe 3) ; not bo' });
    const code = await publish(http, '/api/store-kidlisp', { source: '(wipe 4) ; bo' }, bo.auth);
    await until('bo\u2019s work', () => (receiver.received.length >= 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.verifyAll(hook.secret).map((one) => one.data.code)).toEqual([code]);
    await expect(addHook(hooksOf(), { url: receiver.url, events: 'work.painted' })).rejects.toThrow(
      /Unknown event type: work.painted/,
    );
  });

  it('signs with the new secret and the old one for a while after a rotation; a removed hook gets nothing', async () => {
    const { receiver, hook } = await receiverWithHook();
    const secret = (await rotateHook(hooksOf(), hook._id)) as string;
    expect(secret).not.toBe(hook.secret);
    await publish(http, '/api/store-clock', { source: 'c ; rotated' });
    await until('the delivery', () => (receiver.received.length >= 1 ? true : undefined));
    expect(receiver.verifyAll(secret)).toHaveLength(1);
    expect(receiver.verifyAll(hook.secret)).toHaveLength(1);
    expect(await removeHook(hooksOf(), hook._id)).toBe(true);
    await publish(http, '/api/store-clock', { source: 'c ; removed' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
  });

  it('delivers 1,000 publishes once each, none lost or doubled after deduplication by webhook-id', async () => {
    const { receiver, hook } = await receiverWithHook();
    const started = Date.now();
    const codes = await mapConcurrent(
      Array.from({ length: 1_000 }, (_, n) => n),
      8,
      (n) => publish(http, '/api/store-kidlisp', { source: `(wipe ${n % 256}) ; thousand ${n}` }),
    );
    const published = Date.now();
    await until(
      '1,000 deliveries',
      () => (receiver.ids().size >= 1_000 ? true : undefined),
      120_000,
    );
    process.stderr.write(
      `1,000 published in ${published - started} ms; ${receiver.ids().size - 0} delivered, the last ${Date.now() - published} ms after the last publish\n`,
    );
    const delivered = receiver.verifyAll(hook.secret).map((one) => one.data.code as string);
    expect(new Set(delivered)).toEqual(new Set(codes));
    expect(receiver.ids().size).toBe(1_000);
    // At least once: a duplicate would be allowed, but none happened with a receiver that always answers.
    expect(receiver.received).toHaveLength(1_000);
  }, 180_000);
});

/** A receiver whose answers the test writes itself, on 127.0.0.1. */
async function rawReceiver(handle: (n: number, res: ServerResponse) => void) {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(count++, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('what a webhook receiver answers', () => {
  it('a redirect is an answer that failed: the address it names is never called', async () => {
    const elsewhere = await startReceiver();
    receivers.push(elsewhere);
    const redirecting = await rawReceiver((n, res) =>
      n === 0 ? res.writeHead(302, { location: elsewhere.url }).end() : res.writeHead(204).end(),
    );
    try {
      const hook = await addHook(hooksOf(), { url: redirecting.url });
      await publish(http, '/api/store-clock', { source: 'c e g ; redirected' });
      const [delivery] = await until('the delivered state', async () => {
        const list = await listDeliveries(hooksOf(), hook._id);
        return list[0]?.state === 'delivered' ? list : undefined;
      });
      expect(delivery?.log.map((attempt) => attempt.status)).toEqual([302, 204]);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await redirecting.close();
    }
  });

  it('keeps the first 512 bytes of an answer in the log, however long the answer', async () => {
    const long = await rawReceiver((n, res) =>
      n === 0 ? res.writeHead(500).end('x'.repeat(1_000_000)) : res.writeHead(204).end(),
    );
    try {
      const hook = await addHook(hooksOf(), { url: long.url });
      await publish(http, '/api/store-clock', { source: 'c e g ; a long answer' });
      const [delivery] = await until('the delivered state', async () => {
        const list = await listDeliveries(hooksOf(), hook._id);
        return list[0]?.state === 'delivered' ? list : undefined;
      });
      expect(delivery?.log[0]?.status).toBe(500);
      expect(delivery?.log[0]?.body).toBe('x'.repeat(512));
    } finally {
      await long.close();
    }
  });
});

describe('the address a webhook goes to', () => {
  it('refuses loopback, private, link-local, metadata and mapped addresses, not public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::7f00:1',
      '::',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '64:ff9b::a9fe:a9fe',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('is checked on the resolved address at delivery: without WEBHOOK_ALLOW_PRIVATE, nothing reaches 127.0.0.1 or localhost', async () => {
    const guarded = await startTestApp({ ...FAST, WEBHOOK_ALLOW_PRIVATE: 'false' });
    const receiver = await startReceiver();
    receivers.push(receiver);
    try {
      const collections = eventCollections(guarded.db.db);
      const byAddress = await addHook(collections, { url: receiver.url });
      const byName = await addHook(collections, {
        url: receiver.url.replace('127.0.0.1', 'localhost'),
      });
      const guardedHttp = createHttpClient(guarded.url);
      await publish(guardedHttp, '/api/store-clock', { source: 'c ; private' });
      guardedHttp.close();
      for (const hook of [byAddress, byName]) {
        const [delivery] = await until('the refused attempt', async () => {
          const list = await listDeliveries(collections, hook._id);
          return (list[0]?.log.length ?? 0) > 0 ? list : undefined;
        });
        expect(delivery?.log[0]?.status).toBeNull();
        expect(delivery?.log[0]?.error).toMatch(
          /resolves to (127\.0\.0\.1|::1), a private, loopback, link-local or metadata address/,
        );
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});
