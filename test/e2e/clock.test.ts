import { describe, expect, it } from 'vitest';
import { parseMelody } from '../../src/domain/melody/index.js';
import { postJson } from '../support/http-client.js';
import { useAppAndBrowser } from './support/app-and-browser.js';
import { screenshotPath } from './support/browser.js';

interface Scheduled {
  track: number;
  event: number;
  note: string;
  frequency: number;
  waveform: string;
  start: number;
  duration: number;
}

declare global {
  interface Window {
    __clock: { scheduled: Scheduled[]; state: string; playing: boolean; cycles: number };
  }
}

const session = useAppAndBrowser();

describe('the clock~<code> page', () => {
  const melody = '{square} 5cdefg ceg';

  it('plays the stored melody with Web Audio: tracks in parallel, the shorter one looping', async () => {
    const published = await postJson(`${session.app.url}/api/store-clock`, { source: melody });
    expect(published.status).toBe(201);
    const page = await session.browser.newPage();
    const response = await page.goto(`${session.app.url}/clock~${published.body?.code}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(await page.locator('.track').count()).toBe(2);

    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => page.evaluate(() => window.__clock.state)).toBe('running');
    await expect
      .poll(() => page.evaluate(() => window.__clock.scheduled.length))
      .toBeGreaterThanOrEqual(10);
    await page.waitForTimeout(1_200); // a note or two in, so the screenshot shows the highlight
    await page.screenshot({ path: screenshotPath('clock-playing'), fullPage: true });

    const scheduled = await page.evaluate(() => window.__clock.scheduled);
    const parsed = parseMelody(melody);
    const frequencies = parsed.tracks.map((track) =>
      track.events.filter((event) => event.kind === 'note').map((event) => event.frequency),
    );
    const firstCycle = (track: number) =>
      scheduled.filter((entry) => entry.track === track).slice(0, 5);

    // Track 1 plays its five notes once; track 2 (three notes) loops to fill the same five seconds.
    expect(firstCycle(0).map((entry) => entry.frequency)).toEqual(frequencies[0]);
    expect(firstCycle(1).map((entry) => entry.frequency)).toEqual(
      [0, 1, 2, 0, 1].map((i) => frequencies[1]?.[i]),
    );
    expect(new Set(scheduled.map((entry) => entry.waveform))).toEqual(new Set(['square']));
    const starts = firstCycle(0).map((entry) => entry.start);
    for (const [i, start] of starts.slice(1).entries())
      expect(start - (starts[i] as number)).toBeCloseTo(
        parsed.tracks[0]?.events[i]?.seconds ?? NaN,
        5,
      );
    expect(firstCycle(1)[0]?.start).toBeCloseTo(starts[0] as number, 5);

    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.evaluate(() => window.__clock.playing)).toBe(false);
    expect(page.problems).toEqual([]);
  });
});
