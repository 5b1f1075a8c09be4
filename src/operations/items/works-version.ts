import { perProcess, type Services } from '../../context.js';

const counterOf = perProcess(() => ({ version: 0 }));

/**
 * A number that moves whenever this process stores a work or counts a hit (popularity.ts), so
 * a listing cached under it (the home page, an author's page, the feeds) is not shown after a
 * publish here. Works published by another process show once the listing's time to live ends.
 */
export const worksVersion = (services: Services): number => counterOf(services).version;

export function markWorksChanged(services: Services): void {
  counterOf(services).version++;
}
