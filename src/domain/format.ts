/** A count as every message and description prints it: 50,000. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** A size in bytes as people read it: 1 MiB, 512 KiB, 100 bytes. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${formatCount(bytes / size)} ${unit}`;
  }
  return `${formatCount(bytes)} bytes`;
}
