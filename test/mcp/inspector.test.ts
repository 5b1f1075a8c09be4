import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  assistantPrompts,
  assistantResourceTemplates,
  assistantTools,
} from '../../src/operations/assistant-catalog.js';
import { requireBuiltBin } from './support.js';

const run = promisify(execFile);

/**
 * The MCP Inspector's CLI (0.15.0, the newest that runs on Node 20), a client we did not write.
 * Run from its own package with plain `node`, so nothing is fetched at run time. `mcp-inspector --cli`
 * in 0.15.0 resolves `commander` through hoisting and picks up another package's commander 5;
 * `@modelcontextprotocol/inspector-cli` is the same CLI with its own dependencies declared.
 */
const INSPECTOR_CLI = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);

async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [
      INSPECTOR_CLI,
      '--cli',
      '-e',
      'SERVICE_URL=http://127.0.0.1:1',
      process.execPath,
      requireBuiltBin(),
      ...args,
    ],
    { timeout: 30_000, env: { ...process.env, npm_config_offline: 'true' } },
  );
  return JSON.parse(stdout);
}

describe('MCP Inspector CLI against the stdio bin', () => {
  it('lists the tools', async () => {
    const listed = (await inspect('--method', 'tools/list')) as {
      tools: { name: string; outputSchema?: object }[];
    };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(
      Object.keys(assistantTools).sort(),
    );
    expect(listed.tools.every((tool) => tool.outputSchema)).toBe(true);
  });

  it('lists render_kidlisp among the tools, the items template and the remix-kidlisp prompt', async () => {
    const { tools } = (await inspect('--method', 'tools/list')) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toContain('render_kidlisp');
    const { resourceTemplates } = (await inspect('--method', 'resources/templates/list')) as {
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      Object.values(assistantResourceTemplates).map((template) => template.uriTemplate),
    );
    const { prompts } = (await inspect('--method', 'prompts/list')) as {
      prompts: { name: string }[];
    };
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(
      Object.keys(assistantPrompts).sort(),
    );
    expect(prompts.map((prompt) => prompt.name)).toContain('remix-kidlisp');
  });

  it('calls preview_kidlisp', async () => {
    const result = (await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'preview_kidlisp',
      '--tool-arg',
      'source=(ink red))',
    )) as {
      structuredContent: { valid: boolean; errors: string[] };
      isError?: boolean;
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent.valid).toBe(false);
    expect(result.structuredContent.errors.join(' ')).toMatch(/line 1, column 10/);
  });
});
