import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go unless the operator allows it (WEBHOOK_ALLOW_PRIVATE): loopback,
 * private, shared, link-local (cloud metadata at 169.254.169.254 among them), multicast and
 * reserved ranges, and their IPv6 forms.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form (::127.0.0.1)
  ['fc00::', 7], // unique local, fd00:ec2::254 (a cloud's metadata) among them
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['2001::', 32], // Teredo: an IPv4 address inside
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one a webhook may not reach (an IPv4-mapped IPv6 address by its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/**
 * The address to connect to for `hostname`: resolved now (at each delivery), every answer
 * checked, and the first one returned so the connection goes where the check looked (a name
 * that resolves elsewhere a moment later changes nothing).
 */
export async function resolveDeliveryAddress(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: 4 | 6 }> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const answers =
    isIP(bare) !== 0
      ? [{ address: bare, family: isIP(bare) }]
      : await lookup(bare, { all: true, verbatim: true });
  if (answers.length === 0) throw new RefusedAddress(`${hostname} has no address`);
  if (!allowPrivate) {
    const refused = answers.find((answer) => isPrivateAddress(answer.address));
    if (refused)
      throw new RefusedAddress(
        `${hostname} resolves to ${refused.address}, a private, loopback, link-local or metadata address (WEBHOOK_ALLOW_PRIVATE=true allows it)`,
      );
  }
  const first = answers[0] as { address: string; family: number };
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
