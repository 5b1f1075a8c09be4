import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/graphql/index.js';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing the schema)', async () => {
    const committed = await readFile(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(printedSchema()).toBe(committed);
  });
});
