#!/usr/bin/env node
import { CommandRefused, UsageError } from './commands/usage-error.js';
import { ConfigError, type ConfigVariable, configVariables, shownDefault } from './config.js';
import { DumpError } from './db/dump-names.js';
import { DataDirLockedError } from './db/embedded/lock.js';
import { StartupError } from './startup-error.js';

/** Errors whose message says all the user needs; anything else also shows where it came from. */
const isExplained = (error: unknown) =>
  error instanceof ConfigError ||
  error instanceof UsageError ||
  error instanceof CommandRefused ||
  error instanceof DumpError ||
  error instanceof DataDirLockedError ||
  error instanceof StartupError;

const commands: Record<string, { summary: string; run: (argv: string[]) => Promise<void> }> = {
  serve: {
    summary: 'start the service (the default command)',
    run: async (argv) => (await import('./commands/serve.js')).serveCommand(argv),
  },
  db: {
    summary:
      "the embedded MongoDB-compatible server alone; db export / db import in mongodump's layout",
    run: async (argv) => (await import('./commands/db.js')).dbCommand(argv),
  },
  token: {
    summary: 'API tokens: token create, token list, token revoke',
    run: async (argv) => (await import('./commands/token.js')).tokenCommand(argv),
  },
  webhook: {
    summary: 'webhooks: webhook add, list, remove, rotate, enable, deliveries, replay',
    run: async (argv) => (await import('./commands/webhook.js')).webhookCommand(argv),
  },
  schema: {
    summary: 'write the GraphQL SDL to schema.graphql (or the file named)',
    run: async (argv) => (await import('./commands/schema.js')).schemaCommand(argv),
  },
  kidlisp: {
    summary: 'draw KidLisp headless: kidlisp render',
    run: async (argv) => (await import('./commands/kidlisp.js')).kidlispCommand(argv),
  },
  work: {
    summary: 'take-downs: work remove, work list-removed, work restore, work reports',
    run: async (argv) => (await import('./commands/work.js')).workCommand(argv),
  },
  media: {
    summary: 'place media in storage: media put',
    run: async (argv) => (await import('./commands/media.js')).mediaCommand(argv),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(configVariables).map((name) => name.length));
  return [
    'Usage: publish-gateway [command] [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`),
    '',
    'publish-gateway <command> --help shows the usage of each.',
    '',
    'Environment:',
    ...Object.entries(configVariables).map(([name, meaning]) => {
      const fallback = shownDefault(name as ConfigVariable);
      return `  ${name.padEnd(width)}  ${meaning}${fallback === undefined ? '' : ` (${fallback})`}`;
    }),
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(help());
    return;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command: ${name}\n\n${help()}`);
    process.exitCode = 2;
    return;
  }
  await command.run(first === undefined || first.startsWith('-') ? argv : rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${isExplained(error) ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`,
  );
  process.exit(error instanceof UsageError ? 2 : 1);
});
