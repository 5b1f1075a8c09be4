import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/processes.js';

// Every command and subcommand of the built bin, found from its own help: `--help` prints the
// usage (exit 0), an unknown option one line naming it and then the same usage (exit 2), and
// the README's Commands section shows exactly the usage lines the commands print.

const cwd = await mkdtemp(join(tmpdir(), 'cli-usage-test-'));
afterAll(() => rm(cwd, { recursive: true, force: true }));

/** The bin in an empty directory with an empty data directory: nothing to find or change. */
const cli = (...args: string[]) => runCli(args, { DATA_DIR: join(cwd, 'data') }, cwd);

const topLevel = await cli('--help');
/** The names under `Commands:` in the top-level help, up to the blank line after them. */
const commandNames =
  (topLevel.stdout.split('Commands:\n')[1] ?? '')
    .split('\n\n')[0]
    ?.split('\n')
    .map((line) => line.trim().split(' ')[0] as string) ?? [];

/** The lines of a usage text naming how to call the command: `Usage: x` and those under it. */
function synopses(usage: string): string[] {
  const [head = ''] = usage.split('\n\n');
  return head.split('\n').map((line) => line.replace(/^Usage:/, '').trim());
}

/** A synopsis's command words: `db export --out <dir>` calls `db export`. */
function commandWords(synopsis: string, name: string): string[] {
  const words = synopsis.split(' ').slice(1);
  const at = words.findIndex((word) => word === name || word === `[${name}]`);
  const sub = words.slice(at + 1).findIndex((word) => !/^[a-z][a-z-]*$/.test(word));
  return [name, ...words.slice(at + 1, sub === -1 ? undefined : at + 1 + sub)];
}

/** Each command's `--help`. */
const helps = new Map<string, Awaited<ReturnType<typeof cli>>>();
for (const name of commandNames) helps.set(name, await cli(name, '--help'));
const usages = new Map([...helps].map(([name, help]) => [name, help.stdout]));
const invocations = [...usages].flatMap(([name, usage]) =>
  synopses(usage).map((synopsis) => ({ name, words: commandWords(synopsis, name) })),
);
const distinct = [...new Map(invocations.map((i) => [i.words.join(' '), i])).values()];

describe('the CLI answers every command alike', () => {
  it('lists its commands, and exits 0 with the list on --help, as each command with its usage', () => {
    expect(topLevel.code).toBe(0);
    expect(commandNames).toEqual(
      expect.arrayContaining(['serve', 'db', 'token', 'media', 'schema']),
    );
    for (const [name, help] of helps) {
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toMatch(new RegExp(`^Usage: publish-gateway \\[?${name}\\b`));
      expect(help.stderr, name).toBe('');
    }
    expect(distinct.map((i) => i.words.join(' '))).toEqual(
      expect.arrayContaining([
        'db export',
        'db import',
        'token create',
        'token revoke',
        'media put',
      ]),
    );
  });

  it.each(
    distinct.map((i) => [i.words.join(' '), i] as const),
  )('%s: --help prints the usage, an unknown option is named on one line then the usage', async (_, {
    name,
    words,
  }) => {
    const usage = usages.get(name) as string;
    for (const help of [await cli(...words, '--help'), await cli(...words, '-h')]) {
      expect(help).toEqual({ code: 0, stdout: usage, stderr: '' });
    }
    const unknown = await cli(...words, '--no-such-option');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe(`Unknown option '--no-such-option'.\n\n${usage}`);
    expect(await readdir(cwd)).toEqual([]);
  });

  it('runs serve for options without a command, refusing an unknown one with serve usage', async () => {
    expect(await cli('--no-such-option')).toEqual({
      code: 2,
      stdout: '',
      stderr: `Unknown option '--no-such-option'.\n\n${usages.get('serve')}`,
    });
  });

  it('refuses an unknown command with exit 2 and the list', async () => {
    const unknown = await cli('no-such-command');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`Unknown command: no-such-command\n\n${topLevel.stdout}`);
  });
});

describe("the README's Commands section", () => {
  it('shows exactly the usage lines the commands print', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.split(/^## /m).find((part) => part.startsWith('Commands\n')) ?? '';
    const shown = section
      .split('\n')
      .filter((line) => line.startsWith('    publish-gateway '))
      .map((line) => line.trim());
    expect(shown.sort()).toEqual([...usages.values()].flatMap(synopses).sort());
  });
});
