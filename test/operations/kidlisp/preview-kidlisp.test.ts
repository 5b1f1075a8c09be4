import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../../src/operations/kidlisp/preview-kidlisp.js';
import { runOperation } from '../../../src/operations/operation.js';
import { appErrorOf } from '../../support/context.js';

// Pure: it needs no context (the stdio MCP server runs it without a service), so none is given.
const preview = async (input: unknown) => runOperation(previewKidlisp, null, input);

describe('previewKidlisp', () => {
  it('reports a valid program with its stats and no errors', async () => {
    const result = await preview({ source: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)' });
    expect(result).toMatchObject({ valid: true, errors: [] });
    expect(result.stats).toBeDefined();
  });

  it('reports an unclosed paren as an error with its position, and publishes nothing', async () => {
    const result = await preview({ source: '(wipe navy' });
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it('reports a program without a background as valid with a warning', async () => {
    const result = await preview({ source: '(box 10 10 20 20)' });
    expect(result.valid).toBe(true);
    expect(result.warnings.length).toBeGreaterThan(0);
  });

  it('reports a blank source as invalid instead of refusing the input', async () => {
    expect((await preview({ source: '   ' })).valid).toBe(false);
  });

  it.each([
    ['no source', {}, 'SOURCE_REQUIRED'],
    ['a number', { source: 3 }, 'SOURCE_NOT_STRING'],
    ['50,001 characters', { source: 'x'.repeat(50_001) }, 'SOURCE_TOO_LONG'],
  ])('refuses %s with %s', async (_label, input, code) => {
    expect((await appErrorOf(preview(input))).code).toBe(code);
  });
});
