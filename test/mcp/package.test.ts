import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { assistantPackage } from '../../src/operations/assistant-catalog.js';
import { ROOT, requireBuiltBin } from './support.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const INSTALL_TIMEOUT_MS = 150_000;

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the installable package', () => {
  it('declares the bin, ships dist/src and builds before packing', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.name).toBe(assistantPackage.name);
    expect(manifest.bin[assistantPackage.bin]).toBe('dist/src/mcp/stdio.js');
    expect(manifest.files).toContain('dist/src');
    expect(manifest.scripts.prepack).toMatch(/build/);
    expect((await readFile(requireBuiltBin(), 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(
      true,
    );
  });

  it(
    'installs globally from the tarball, and its publish-mcp answers initialize',
    async () => {
      requireBuiltBin();
      scratch = await mkdtemp(join(tmpdir(), 'publish-mcp-pack-'));
      // dist was just built by `npm test`; --ignore-scripts skips prepack's second build, which would
      // rewrite dist under the other tests that are running it.
      const packed = await run(
        npm,
        ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch],
        { cwd: ROOT, timeout: 60_000 },
      );
      const [tarball] = JSON.parse(packed.stdout) as {
        filename: string;
        files: { path: string }[];
      }[];
      expect(tarball?.files.map((file) => file.path)).toContain('dist/src/mcp/stdio.js');

      const prefix = join(scratch, 'global');
      await run(
        npm,
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          join(scratch, tarball!.filename),
        ],
        {
          cwd: scratch,
          timeout: INSTALL_TIMEOUT_MS,
        },
      );

      const transport = new StdioClientTransport({
        command: join(prefix, 'bin', assistantPackage.bin),
        env: { SERVICE_URL: 'http://127.0.0.1:1', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'package-test', version: '1.0.0' });
      try {
        await client.connect(transport);
        expect(client.getServerVersion()).toMatchObject({
          name: assistantPackage.serverName,
          version: '1.1.0',
        });
        const preview = await client.callTool({
          name: 'preview_kidlisp',
          arguments: { source: 'blue' },
        });
        expect(preview).toMatchObject({ structuredContent: { valid: true } });
      } finally {
        await client.close();
      }
    },
    INSTALL_TIMEOUT_MS + 60_000,
  );
});
