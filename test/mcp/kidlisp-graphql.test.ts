import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIDLISP_MAX } from '../../src/operations/publish/inputs.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { graphql, postJson } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  // Distinct clients are told apart by X-Forwarded-For from this (trusted, loopback) proxy.
  app = await startTestApp({ TRUST_PROXY: 'loopback' });
});
afterAll(() => app?.close());

const PREVIEW = `query Preview($source: String!) {
  previewKidlisp(source: $source) {
    valid errors warnings
    stats { expressions functionsUsed hasAnimation hasInteraction hasWipe lines embeds timingWords notDrawn }
    diagnostics { severity message line column }
  }
}`;

describe('GraphQL previewKidlisp', () => {
  it('returns valid, errors, warnings, stats and positioned diagnostics', async () => {
    const good = await graphql(app.url, PREVIEW, {
      source: '(1s (coat fade:black-red-rainbow-red-black:frame 64)) (0.3s (zoom 0.5)) (scroll 1)',
    });
    expect(good.body.errors).toBeUndefined();
    expect(good.body.data.previewKidlisp).toMatchObject({
      valid: true,
      errors: [],
      stats: {
        hasAnimation: true,
        functionsUsed: expect.arrayContaining(['coat', 'scroll', 'zoom']),
        timingWords: ['0.3s', '1s'],
      },
    });

    const bad = await graphql(app.url, PREVIEW, { source: '(ink red))' });
    expect(bad.body.data.previewKidlisp.valid).toBe(false);
    expect(bad.body.data.previewKidlisp.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', line: 1, column: 10 }),
    );
  });

  it('accepts a ( left open with a warning at its position and lists the words not drawn', async () => {
    const result = await graphql(app.url, PREVIEW, {
      source: '(wipe navy)\n(once cube (ink red)\n(line beat 0 9 9)',
    });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.previewKidlisp).toMatchObject({
      valid: true,
      errors: [],
      stats: { notDrawn: ['beat', 'cube'] },
      diagnostics: [{ severity: 'warning', line: 2, column: 1 }],
    });
    const stray = await graphql(app.url, PREVIEW, { source: '(wipe navy))\n(ink red' });
    expect(stray.body.data.previewKidlisp.valid).toBe(false);
    expect(stray.body.data.previewKidlisp.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', line: 1, column: 12 }),
      expect.objectContaining({ severity: 'warning', line: 2, column: 1 }),
    ]);
  });

  it('reports an empty source as invalid rather than failing', async () => {
    const empty = await graphql(app.url, PREVIEW, { source: '  ' });
    expect(empty.body.data.previewKidlisp).toMatchObject({ valid: false });
  });

  it('refuses an over-length source with SOURCE_TOO_LONG, like publish', async () => {
    const result = await graphql(app.url, PREVIEW, { source: 'x'.repeat(KIDLISP_MAX + 1) });
    expect(result.body.errors?.[0]?.extensions?.code).toBe('SOURCE_TOO_LONG');
  });
});

describe('GraphQL topKidlisp', () => {
  it('lists the most popular KidLisp (by hits: distinct clients) first, with URLs', async () => {
    const first = await postJson(`${app.url}/api/store-kidlisp`, { source: '(wipe red) ; once' });
    const second = await postJson(`${app.url}/api/store-kidlisp`, {
      source: '(wipe blue) ; thrice',
    });
    // Two more clients publish it (the same client again would not count).
    for (const address of ['10.3.0.1', '10.3.0.2', '10.3.0.2'])
      await postJson(
        `${app.url}/api/store-kidlisp`,
        { source: '(wipe blue) ; thrice' },
        { 'x-forwarded-for': address },
      );
    const result = await graphql(
      app.url,
      'query { topKidlisp(limit: 2) { code source hits url } }',
    );
    expect(result.body.data.topKidlisp).toEqual([
      {
        code: second.body?.code,
        source: '(wipe blue) ; thrice',
        hits: 3,
        url: `${app.service.services.config.publicUrl}/${second.body?.code}`,
      },
      {
        code: first.body?.code,
        source: '(wipe red) ; once',
        hits: 1,
        url: `${app.service.services.config.publicUrl}/${first.body?.code}`,
      },
    ]);
    const tooMany = await graphql(app.url, 'query { topKidlisp(limit: 500) { code } }');
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('LIMIT_TOO_LARGE');
  });
});
