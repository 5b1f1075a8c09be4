import { loadConfig } from '../config.js';
import { CommandRefused, parseCommandArgs, UsageError, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway token create --handle @name [--label <text>] [--account <id>] [--scopes publish,keys]
       publish-gateway token list
       publish-gateway token revoke <token-or-prefix>

create prints a new API token (shown only this once) for the handle and records the handle in
@handles, so the works published with it show its author. A handle belongs to one account: another
token for it goes to that account when the gateway made it; a handle another account holds is given
only with --account naming that account. --scopes: publish, keys or both (the default); a token
with keys lets its member make their own keys (POST /api/keys).
list shows every token by prefix; revoke ends the tokens matching a whole token or a prefix.
`;

export async function tokenCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, {
    handle: { type: 'string' },
    label: { type: 'string' },
    account: { type: 'string' },
    scopes: { type: 'string' },
  });
  if (!args) return;
  const { positionals, values } = args;
  const [action, target] = positionals;
  // Loaded once the arguments are read, so that --help answers at once.
  const [
    { createApiToken, isValidHandle, listApiTokens, revokeApiToken },
    { AccountHasHandleError, HandleTakenError },
    { parseScopes },
    { connectForCommand },
  ] = await Promise.all([
    import('../auth/api-tokens.js'),
    import('../auth/handle-claims.js'),
    import('../auth/scopes.js'),
    import('./connect.js'),
  ]);
  if (action !== 'create' && action !== 'list' && action !== 'revoke')
    throw usageError(
      action === undefined ? 'Name a token command.' : `Unknown token command: ${action}.`,
      usage,
    );
  if (action === 'create' && !values.handle) throw usageError('--handle is required.', usage);
  if (action === 'create' && !isValidHandle(values.handle as string))
    throw new UsageError(`Not a valid handle: ${values.handle}`);
  if (action === 'revoke' && !target) throw usageError('Name the token or its prefix.', usage);
  const scopes = values.scopes === undefined ? undefined : parseScopes(values.scopes as string);
  if (scopes === null) throw usageError(`Unknown scopes: ${values.scopes}.`, usage);

  const { db, close } = await connectForCommand(loadConfig());
  try {
    if (action === 'create') {
      const { token, record, newAccount } = await createApiToken(db, {
        handle: values.handle as string,
        ...(values.label ? { label: values.label } : {}),
        ...(values.account ? { account: values.account } : {}),
        ...(scopes ? { scopes } : {}),
      }).catch((error: unknown) => {
        if (error instanceof HandleTakenError || error instanceof AccountHasHandleError)
          throw new CommandRefused(error.message);
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
          `${record.prefix}…  ${record.handle ? `@${record.handle}` : '-'}  ${record.account}  ${record.created.toISOString()}  ${state}${record.label ? `  ${record.label}` : ''}\n`,
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
