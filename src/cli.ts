#!/usr/bin/env node
import { UsageError } from './commands/usage-error.js';
import { ConfigError, type ConfigVariable, configVariables, shownDefault } from './config.js';
import { DataDirLockedError } from './db/embedded/lock.js';

/** Errors whose message says all the user needs; anything else also shows where it came from. */
const isExplained = (error: unknown) =>
  error instanceof ConfigError ||
  error instanceof UsageError ||
  error instanceof DataDirLockedError;

const commands: Record<string, { summary: string; run: (argv: string[]) => Promise<void> }> = {
  serve: {
    summary: 'start the service (default)',
    run: async () => (await import('./commands/serve.js')).serveCommand(),
  },
  db: {
    summary:
      'run the embedded MongoDB-compatible server standalone (--port 27017 --data-dir ./data/db)',
    run: async (argv) => (await import('./commands/db.js')).dbCommand(argv),
  },
  token: {
    summary:
      'API tokens: token create --handle @name [--label text] | token list | token revoke <token-or-prefix>',
    run: async (argv) => (await import('./commands/token.js')).tokenCommand(argv),
  },
  schema: {
    summary: 'print the GraphQL SDL to schema.graphql (or the file named)',
    run: async (argv) => (await import('./commands/schema.js')).schemaCommand(argv),
  },
  kidlisp: {
    summary:
      'draw a KidLisp program headless: kidlisp render <file.lisp|fixture.json> --out DIR | --gif FILE | --sha256',
    run: async (argv) => (await import('./commands/kidlisp.js')).kidlispCommand(argv),
  },
  media: {
    summary: 'place media in storage: media put <file> --slug <yyyy/mm/dd/name.ext>',
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
  process.exit(error instanceof UsageError ? error.exitCode : 1);
});
