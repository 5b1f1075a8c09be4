import { loadConfig } from '../config.js';
import { CommandRefused, parseCommandArgs, UsageError, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway token create --handle @name [--label <text>] [--account <id>]
       publish-gateway token list
       publish-gateway token revoke <token-or-prefix>

create prints a new API token (shown only this once) for the handle; a handle belongs to one
account, so another token for it goes to that account (--account names it for a new handle).
list shows every token by prefix; revoke ends the tokens matching a whole token or a prefix.
`;

export async function tokenCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, {
    handle: { type: 'string' },
    label: { type: 'string' },
    account: { type: 'string' },
  });
  if (!args) return;
  const { positionals, values } = args;
  const [action, target] = positionals;
  // Loaded once the arguments are read, so that --help answers at once.
  const [
    { createApiToken, HandleTakenError, isValidHandle, listApiTokens, revokeApiToken },
    { connectForCommand },
  ] = await Promise.all([import('../auth/api-tokens.js'), import('./connect.js')]);
  if (action !== 'create' && action !== 'list' && action !== 'revoke')
    throw usageError(
      action === undefined ? 'Name a token command.' : `Unknown token command: ${action}.`,
      usage,
    );
  if (action === 'create' && !values.handle) throw usageError('--handle is required.', usage);
  if (action === 'create' && !isValidHandle(values.handle as string))
    throw new UsageError(`Not a valid handle: ${values.handle}`);
  if (action === 'revoke' && !target) throw usageError('Name the token or its prefix.', usage);

  const { db, close } = await connectForCommand(loadConfig());
  try {
    if (action === 'create') {
      const { token, record, newAccount } = await createApiToken(db, {
        handle: values.handle as string,
        ...(values.label ? { label: values.label } : {}),
        ...(values.account ? { account: values.account } : {}),
      }).catch((error: unknown) => {
        if (error instanceof HandleTakenError) throw new CommandRefused(error.message);
        throw error;
      });
      process.stdout.write(`${token}\n`);
      process.stderr.write(
        `Token for @${record.handle} (${newAccount ? 'new account' : 'its existing account'} ${record.account}). It is shown only this once.\n`,
      );
    } else if (action === 'list') {
      for (const record of await listApiTokens(db)) {
        const state = record.revoked ? `revoked ${record.revoked.toISOString()}` : 'active';
        process.stdout.write(
          `${record.prefix}…  @${record.handle}  ${record.account}  ${record.created.toISOString()}  ${state}${record.label ? `  ${record.label}` : ''}\n`,
        );
      }
    } else {
      const revoked = await revokeApiToken(db, target as string);
      process.stdout.write(`${revoked} token(s) revoked\n`);
      if (revoked === 0) process.exitCode = 1;
    }
  } finally {
    await close();
  }
}
