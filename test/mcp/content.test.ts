import { describe, expect, it } from 'vitest';
import { previewKidlisp } from '../../src/domain/kidlisp/index.js';
import { checkPieceExports } from '../../src/domain/piece-exports.js';
import { kidlispReference } from '../../src/mcp/content/kidlisp-reference.js';
import {
  bundledExamples,
  COMMUNITY_NOTICE,
  pieceExamplesMarkdown,
} from '../../src/mcp/content/piece-examples.js';
import { pieceTemplate } from '../../src/mcp/content/piece-template.js';
import { readStdioSettings } from '../../src/mcp/stdio-settings.js';
import {
  assistantPackage,
  assistantPrompts,
  assistantResources,
  assistantTools,
} from '../../src/operations/assistant-catalog.js';

describe('assistant catalog', () => {
  it('uses the exact names of docs/contract.md', () => {
    expect(Object.keys(assistantTools).sort()).toEqual([
      'get_api_info',
      'get_item',
      'preview_kidlisp',
      'publish_clock',
      'publish_kidlisp',
      'publish_piece',
      'render_kidlisp',
      'search_works',
    ]);
    for (const [key, tool] of Object.entries(assistantTools)) expect(tool.name, key).toBe(key);
    expect(
      Object.fromEntries(
        Object.values(assistantResources).map((resource) => [resource.uri, resource.mimeType]),
      ),
    ).toEqual({
      'service://piece-template': 'text/javascript',
      'service://kidlisp-reference': 'text/markdown',
      'service://piece-examples': 'text/markdown',
    });
    expect(Object.keys(assistantPrompts).sort()).toEqual([
      'create-kidlisp',
      'create-piece',
      'remix-kidlisp',
    ]);
    const server = assistantPackage.clientConfiguration.mcpServers['publish-gateway'];
    expect(server).toMatchObject({ command: 'publish-mcp', args: [] });
    expect(Object.keys(server.env).sort()).toEqual(['SERVICE_TOKEN', 'SERVICE_URL']);
  });

  it('prompt arguments listed in the catalog match their schemas', () => {
    for (const prompt of Object.values(assistantPrompts)) {
      expect(Object.keys(prompt.argsSchema.shape).sort()).toEqual(
        prompt.arguments.map((argument) => argument.name).sort(),
      );
      expect(prompt.argsSchema.safeParse({}).success).toBe(false);
    }
  });
});

describe('resource content', () => {
  it('the template exports all four lifecycle functions', () => {
    const check = checkPieceExports(pieceTemplate(new Date('2026-08-03T00:00:00Z')));
    expect(check.ok && [...check.lifecycle].sort()).toEqual(['act', 'boot', 'paint', 'sim']);
  });

  it('every program in the reference and the bundled examples is valid KidLisp', () => {
    const indented = [...kidlispReference.matchAll(/((?:^ {4}.*\n)+)/gm)].map((match) =>
      match[1]!.replace(/^ {4}/gm, '').trim(),
    );
    expect(indented.length).toBeGreaterThan(0);
    for (const source of [...indented, ...bundledExamples.map((example) => example.source)]) {
      const preview = previewKidlisp(source);
      expect(preview.errors, source).toEqual([]);
      expect(preview.warnings, source).toEqual([]);
    }
  });

  it('examples keep long sources short and fences closed', () => {
    const source = '```\n'.repeat(1_000);
    const markdown = pieceExamplesMarkdown([{ code: 'abc', source, hits: 1, url: 'http://x/abc' }]);
    expect(markdown).toContain('(First 2000 characters shown.)');
    expect(markdown).toContain('1 hit)');
    // The fence is longer than any backtick run of the source, and the first line that could close it is its own closing fence.
    const lines = markdown.split('\n');
    const open = lines.indexOf('````lisp');
    expect(open).toBeGreaterThan(-1);
    const close = lines.findIndex((line, i) => i > open && /^`{4,}/.test(line));
    expect(close).toBeGreaterThan(open);
    expect(lines[close]).toBe('````');
    expect(lines.slice(open + 1, close).join('\n')).toBe(source.slice(0, 2_000));
    expect(lines.slice(close + 1).join('\n')).toBe(
      `\n(First 2000 characters shown.)\n\n${COMMUNITY_NOTICE}\n`,
    );
  });
});

describe('stdio settings', () => {
  it('defaults SERVICE_URL and treats a blank token as none', () => {
    expect(readStdioSettings({ SERVICE_TOKEN: ' ' })).toEqual({
      serviceUrl: 'http://localhost:4000',
      token: undefined,
      timeoutMs: 30_000,
    });
    expect(
      readStdioSettings({ SERVICE_URL: 'https://example.org/', SERVICE_TOKEN: 'pgw_x' }),
    ).toMatchObject({ serviceUrl: 'https://example.org', token: 'pgw_x' });
    expect(() => readStdioSettings({ SERVICE_URL: 'ftp://example.org' })).toThrow(/SERVICE_URL/);
  });
});
