import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ConfigVariable,
  configDefaults,
  configVariables,
  loadConfig,
  shownDefault,
} from '../../src/config.js';

/** The rows of the README's "## Configuration" table: variable -> its default cell. */
function readmeTable(): Map<string, string> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  if (!section) throw new Error('README has no "## Configuration" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([A-Z0-9_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name === undefined) continue;
    expect(rows.has(name), `${name} appears twice`).toBe(false);
    rows.set(name, cells[2] ?? '');
  }
  return rows;
}

describe('the README configuration table', () => {
  const table = readmeTable();

  it('lists every variable config.ts reads, and no other', () => {
    expect([...table.keys()].sort()).toEqual(Object.keys(configVariables).sort());
  });

  it('shows the default config.ts applies, and none where there is none', () => {
    for (const [name, cell] of table) {
      const fallback = shownDefault(name as ConfigVariable);
      expect(cell, name).toBe(fallback === undefined ? '' : `\`${fallback}\``);
    }
  });
});

describe('the defaults', () => {
  it('are what an empty environment loads', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: configDefaults.PORT,
      host: configDefaults.HOST,
      publicUrl: `http://localhost:${configDefaults.PORT}`,
      mongodbUri: undefined,
      mongodbDb: configDefaults.MONGODB_DB,
      dataDir: configDefaults.DATA_DIR,
      logLevel: configDefaults.LOG_LEVEL,
      storage: { kind: configDefaults.STORAGE },
      rateLimit: {
        publish: configDefaults.RATE_LIMIT_PUBLISH,
        windowSeconds: configDefaults.RATE_LIMIT_WINDOW_SECONDS,
        store: configDefaults.RATE_LIMIT_STORE,
      },
      graphiql: configDefaults.GRAPHIQL,
      requestTimeoutMs: configDefaults.REQUEST_TIMEOUT_MS,
    });
    const s3 = loadConfig({ STORAGE: 's3', S3_BUCKET: 'b' }).storage;
    expect(s3).toMatchObject({
      region: configDefaults.S3_REGION,
      forcePathStyle: configDefaults.S3_FORCE_PATH_STYLE,
    });
  });

  it('belong to variables config.ts documents', () => {
    for (const name of Object.keys(configDefaults)) expect(configVariables).toHaveProperty(name);
  });
});
