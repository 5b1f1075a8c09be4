import { writeFile } from 'node:fs/promises';
import { printedSchema } from '../graphql/index.js';

/** Writes the printed SDL to schema.graphql (committed; a test fails when it drifts). */
export async function schemaCommand(argv: string[]): Promise<void> {
  const target = argv[0] ?? 'schema.graphql';
  await writeFile(target, printedSchema());
  process.stdout.write(`wrote ${target}\n`);
}
