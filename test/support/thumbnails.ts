import { expect, vi } from 'vitest';
import type { TestApp } from './app.js';

/**
 * Waits until the thumbnail of each KidLisp code is stored. A publish stores it in the
 * background, so a test that counts database commands lets those writes end first.
 */
export async function thumbnailsStored(app: TestApp, codes: readonly string[]): Promise<void> {
  await vi.waitFor(
    async () =>
      expect(await app.db.thumbnails.countDocuments({ _id: { $in: [...codes] } })).toBe(
        codes.length,
      ),
    { timeout: 20_000, interval: 50 },
  );
}
