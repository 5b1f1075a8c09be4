import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/**
 * Which proxies' X-Forwarded-For is believed (TRUST_PROXY): none (the default), the nearest
 * `hops` proxies, or the peers matching a list of addresses, CIDRs or proxy-addr's names
 * (loopback, linklocal, uniquelocal).
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'list'; entries: string[] };

export const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

const isCidr = (entry: string): boolean => {
  const slash = entry.indexOf('/');
  if (slash < 0) return false;
  const address = entry.slice(0, slash);
  const bits = entry.slice(slash + 1);
  const family = isIP(address);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128);
};

const isTrustEntry = (entry: string) =>
  isIP(entry) !== 0 || isCidr(entry) || (TRUST_PROXY_NAMES as readonly string[]).includes(entry);

/** Parses TRUST_PROXY; returns a message instead when the value is not one of the three forms. */
export function parseTrustProxy(value: string | undefined): TrustProxy | { error: string } {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === 'none') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops) || hops > 64) return { error: 'a hop count is at most 64' };
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isTrustEntry(entry));
  if (bad !== undefined) {
    return {
      error: `${JSON.stringify(bad.slice(0, 60))} is not an address, a CIDR, ${TRUST_PROXY_NAMES.join(', ')} or a hop count`,
    };
  }
  try {
    proxyaddr.compile(entries); // the matcher must accept every entry too (it is stricter about some IPv6 forms)
  } catch (error) {
    return { error: (error as Error).message };
  }
  return { kind: 'list', entries };
}
