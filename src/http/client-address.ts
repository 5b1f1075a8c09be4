import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../domain/trust-proxy.js';

/** Is the peer at `address`, `hop` steps from this server (0: the socket's peer), a trusted proxy? */
export type TrustFunction = (address: string, hop: number) => boolean;

const trustFunctions = new WeakMap<TrustProxy, TrustFunction>();

/** TRUST_PROXY as a function, for the client address below and for express's `trust proxy`. */
export function trustFunction(trust: TrustProxy): TrustFunction {
  let made = trustFunctions.get(trust);
  if (!made) {
    made =
      trust.kind === 'none'
        ? () => false
        : trust.kind === 'hops'
          ? (_address, hop) => hop < trust.hops
          : proxyaddr.compile(trust.entries);
    trustFunctions.set(trust, made);
  }
  return made;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) as the IPv4 address, so one client has one key. */
const plain = (address: string) =>
  /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;

/**
 * The client's address from the socket's peer and the X-Forwarded-For entries (as sent, left to
 * right): walking from the peer towards the client, each trusted proxy hands over to the entry
 * before it. A forwarded value that is not an address ends the walk at the last address, so a
 * made-up string never becomes a client, and with no proxy trusted the header is never read.
 */
export function chooseClientAddress(
  peer: string,
  forwardedFor: readonly string[],
  trust: TrustFunction,
): string {
  let address = plain(peer);
  for (let hop = 0; hop < forwardedFor.length; hop++) {
    if (!trust(address, hop)) return address;
    const next = (forwardedFor[forwardedFor.length - 1 - hop] as string).trim();
    if (isIP(next) === 0) return address;
    address = plain(next);
  }
  return address;
}

/** At most this many X-Forwarded-For entries are looked at (a longer chain is not a real one). */
const MAX_FORWARDED = 32;

function forwardedFor(req: IncomingMessage): string[] {
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return [];
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',');
  return entries.slice(-MAX_FORWARDED);
}

/** The client's address, seen through trusted proxies; the same rule for every face (rate limits key on it). */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const peer = req.socket.remoteAddress ?? '';
  const fn = trustFunction(trust);
  if (trust.kind === 'none' || peer === '') return plain(peer) || 'unknown';
  return chooseClientAddress(peer, forwardedFor(req), fn);
}
