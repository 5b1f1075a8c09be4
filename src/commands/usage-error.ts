import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A mistake in how a command was called: shown to the user as its message alone, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that refuses what it was asked (a taken handle, say): its message alone, exit 1. */
export class CommandRefused extends Error {
  override name = 'CommandRefused';
}

/** A UsageError of one line saying what is wrong, then the usage. */
export const usageError = (problem: string, usage: string) =>
  new UsageError(`${problem}\n\n${usage.trimEnd()}`);

type Options = NonNullable<ParseArgsConfig['options']>;

const helpOption = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A command's arguments, by `node:util`'s parseArgs (strict): `undefined` after printing `usage`
 * to stdout when `--help` or `-h` is among them; a UsageError naming an unknown option, a
 * missing value or an unexpected argument, followed by `usage`, otherwise. Every command
 * (and subcommand) reads its arguments through this, so all answer alike:
 *
 *   const args = parseCommandArgs(argv, usage, { out: { type: 'string' } });
 *   if (!args) return;
 */
export function parseCommandArgs<const O extends Options>(
  argv: string[],
  usage: string,
  options: O,
  { positionals = true }: { positionals?: boolean } = {},
) {
  let parsed: ReturnType<typeof parse<O>>;
  try {
    parsed = parse(argv, options, positionals);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    throw usageError(`${(error as Error).message.split('. ')[0]}.`, usage);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage.trimEnd()}\n`);
    return undefined;
  }
  return parsed;
}

const parse = <O extends Options>(argv: string[], options: O, positionals: boolean) =>
  parseArgs({
    args: argv,
    options: { ...options, ...helpOption },
    allowPositionals: positionals,
    strict: true,
  });
