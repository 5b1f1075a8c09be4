import { type Services, sharedServices } from '../../context.js';

const versions = new WeakMap<Services, number>();

/**
 * A number that moves whenever this process stores a work or counts a hit (popularity.ts), so
 * a listing cached under it (the home page, an author's page, the feeds) is not shown after a
 * publish here. Works published by another process show once the listing's time to live ends.
 */
export const worksVersion = (services: Services): number =>
  versions.get(sharedServices(services)) ?? 0;

export function markWorksChanged(services: Services): void {
  versions.set(sharedServices(services), worksVersion(services) + 1);
}
