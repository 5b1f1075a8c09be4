import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { parseTrustProxy, type TrustProxy } from '../../src/domain/trust-proxy.js';
import { chooseClientAddress, trustFunction } from '../../src/http/client-address.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createHttpClient } from '../support/http-client.js';

const ipv4 = fc.ipV4();
const ipv6 = fc.ipV6();
const address = fc.oneof(ipv4, ipv6);
/** Proxy addresses as a configuration writes them (IPv6 in hexadecimal groups). */
const proxyAddress = fc.oneof(
  ipv4,
  ipv6.filter((a) => !a.includes('.')),
);
const cidr = fc.oneof(
  fc.tuple(ipv4, fc.integer({ min: 1, max: 32 })).map(([a, bits]) => `${a}/${bits}`),
  fc
    .tuple(
      ipv6.filter((a) => !a.includes('.')),
      fc.integer({ min: 1, max: 128 }),
    )
    .map(([a, bits]) => `${a}/${bits}`),
);
/** What a client may put in X-Forwarded-For: addresses, or anything at all. */
const forwardedValue = fc.oneof(
  address,
  fc.string({ maxLength: 40 }),
  fc.constant('x'.repeat(8192)),
);

const trustOf = (value: string): TrustProxy => {
  const parsed = parseTrustProxy(value);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
};

describe('TRUST_PROXY parsing', () => {
  it('trusts no proxy when unset, empty or 0', () => {
    for (const value of [undefined, '', '  ', '0', 'none', 'false'])
      expect(parseTrustProxy(value)).toEqual({ kind: 'none' });
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'none' });
  });

  it('reads any list of addresses and CIDRs, in any spacing, as those entries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(proxyAddress, cidr), { minLength: 1, maxLength: 8 }),
        (entries) => {
          const value = entries.join(' , ');
          expect(parseTrustProxy(value)).toEqual({ kind: 'list', entries });
        },
      ),
    );
  });

  it('reads a hop count as a number of hops', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (hops) => {
        expect(parseTrustProxy(String(hops))).toEqual({ kind: 'hops', hops });
      }),
    );
  });

  it('refuses anything else at start-up, naming the variable', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 30 })
          .filter((value) => !/^[\s\d]*$/.test(value) && !['none', 'false'].includes(value.trim()))
          .filter((value) =>
            value
              .split(',')
              .some(
                (entry) =>
                  isIP(entry.trim()) === 0 &&
                  !/^[\d.:a-f]+\/\d+$/i.test(entry.trim()) &&
                  !['loopback', 'linklocal', 'uniquelocal'].includes(entry.trim()),
              ),
          ),
        (value) => {
          expect(parseTrustProxy(value)).toHaveProperty('error');
          expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
          expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
        },
      ),
    );
    for (const value of ['10.0.0.0/33', '0.0.0.0/0', '::1/129', '1.2.3', '65', 'loopback,nope'])
      expect(parseTrustProxy(value)).toHaveProperty('error');
  });
});

describe('the client address chosen from a forwarded chain', () => {
  const settings = fc.oneof(
    fc.constant('0'),
    fc.integer({ min: 1, max: 6 }).map(String),
    fc
      .array(fc.oneof(proxyAddress, cidr), { minLength: 1, maxLength: 4 })
      .map((list) => list.join(',')),
    fc.constant('loopback'),
  );

  it('is always a real address: the peer or a forwarded address, never a made-up string', () => {
    fc.assert(
      fc.property(
        settings,
        address,
        fc.array(forwardedValue, { maxLength: 8 }),
        (setting, peer, chain) => {
          const chosen = chooseClientAddress(peer, chain, trustFunction(trustOf(setting)));
          expect(isIP(chosen)).not.toBe(0);
          expect([peer, ...chain.map((value) => value.trim())]).toContain(chosen);
        },
      ),
    );
  });

  it('is the peer whenever the peer is not trusted, whatever the header says', () => {
    fc.assert(
      fc.property(address, fc.array(forwardedValue, { maxLength: 8 }), (peer, chain) => {
        expect(chooseClientAddress(peer, chain, trustFunction(trustOf('0')))).toBe(peer);
        const other = peer === '10.9.9.9' ? '10.9.9.8' : '10.9.9.9';
        expect(chooseClientAddress(peer, chain, trustFunction(trustOf(other)))).toBe(peer);
      }),
    );
  });

  it('with N hops trusted, is the entry N steps from the peer (or the farthest one)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        address,
        fc.array(address, { maxLength: 8 }),
        (hops, peer, chain) => {
          const chosen = chooseClientAddress(peer, chain, trustFunction(trustOf(String(hops))));
          const path = [peer, ...[...chain].reverse()];
          expect(chosen).toBe(path[Math.min(hops, chain.length)]);
        },
      ),
    );
  });

  it('with a list, is the first untrusted address walking from the peer, stopping at a non-address', () => {
    fc.assert(
      fc.property(
        fc.array(fc.ipV4(), { minLength: 1, maxLength: 4 }),
        fc.array(forwardedValue, { maxLength: 8 }),
        (proxies, chain) => {
          const trust = trustFunction(trustOf(proxies.join(',')));
          const peer = proxies[0] as string;
          const path = [peer, ...[...chain].reverse().map((value) => value.trim())];
          let expected = peer;
          for (let i = 0; i < path.length; i++) {
            expected = path[i] as string;
            if (!proxies.includes(expected)) break;
            const next = path[i + 1];
            if (next === undefined || isIP(next) === 0) break;
          }
          expect(chooseClientAddress(peer, chain, trust)).toBe(expected);
        },
      ),
    );
  });
});

describe('rate limits behind X-Forwarded-For', () => {
  const publishes = async (app: TestApp, forwardedFor: (i: number) => string) => {
    const client = createHttpClient(app.url);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await client.post(
          '/api/store-kidlisp',
          { source: `(wipe ${i})` },
          { 'x-forwarded-for': forwardedFor(i) },
        );
        statuses.push(response.status);
      }
      return statuses;
    } finally {
      client.close();
    }
  };

  describe('with no proxy trusted (the default)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ RATE_LIMIT_PUBLISH: '2' });
    });
    afterAll(() => app.close());

    it('keeps limiting a client that makes up a new address for each request, on every face', async () => {
      const statuses = await publishes(app, (i) => `203.0.113.${i + 1}`);
      expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);
      const client = createHttpClient(app.url);
      try {
        const viaGraphql = await client.graphql(
          'mutation { publishKidlisp(source: "(wipe 99)") { code } }',
          {},
          { 'x-forwarded-for': '203.0.113.200' },
        );
        expect(viaGraphql.json.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
      } finally {
        client.close();
      }
      const { StreamableHTTPClientTransport, Client } = await import(
        '@modelcontextprotocol/client'
      );
      const mcp = new Client({ name: 'spoofer', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', app.url), {
          requestInit: { headers: { 'x-forwarded-for': '203.0.113.201' } },
        }),
      );
      try {
        const result = await mcp.callTool({
          name: 'publish_kidlisp',
          arguments: { source: '(wipe 98)' },
        });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ code: 'RATE_LIMITED' });
      } finally {
        await mcp.close();
      }
    });
  });

  describe('with TRUST_PROXY naming the proxy (loopback here)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ RATE_LIMIT_PUBLISH: '2', TRUST_PROXY: '127.0.0.1,::1' });
    });
    afterAll(() => app.close());

    it('gives each forwarded client its own bucket', async () => {
      const statuses = await publishes(app, (i) => `198.51.100.${i + 1}`);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 201]);
    });

    it("ignores forwarded values that are not addresses: they share the proxy's bucket", async () => {
      const statuses = await publishes(app, (i) => `${'x'.repeat(8000)}${i}`);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(4);
    });
  });
});
