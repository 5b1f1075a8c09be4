import { writeFile } from 'node:fs/promises';
import { parseCommandArgs, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway schema [<file>]

Writes the GraphQL SDL to <file> (schema.graphql by default; committed, and a test fails when
it drifts from the code).
`;

/** Writes the printed SDL to schema.graphql (committed; a test fails when it drifts). */
export async function schemaCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, {});
  if (!args) return;
  if (args.positionals.length > 1) throw usageError('Name one file at most.', usage);
  const target = args.positionals[0] ?? 'schema.graphql';
  // Loaded once the arguments are read, so that --help answers at once.
  const { printedSchema } = await import('../graphql/index.js');
  await writeFile(target, printedSchema());
  process.stdout.write(`wrote ${target}\n`);
}
