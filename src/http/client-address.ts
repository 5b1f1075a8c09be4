import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Proxies whose X-Forwarded-For is believed: only ones on this machine. */
export const TRUSTED_PROXIES = 'loopback';

const trusted = proxyaddr.compile(TRUSTED_PROXIES);

/** The client's address, seen through trusted proxies; the same rule for every face (rate limits key on it). */
export const clientAddressOf = (req: IncomingMessage): string => proxyaddr(req, trusted);
