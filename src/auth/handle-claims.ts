import type { Database } from '../db/client.js';
import { isDuplicateKey } from '../db/failure-kinds.js';
import type { Logger } from '../logger.js';

/** Accounts `token create` makes for a new handle; every other account is someone else's (the reference's members). */
export const GATEWAY_ACCOUNT_PREFIX = 'gateway|';

export const isGatewayAccount = (account: string) => account.startsWith(GATEWAY_ACCOUNT_PREFIX);

/** A handle `@handles` (or an earlier claim) gives to an account other than the one asked for. */
export class HandleTakenError extends Error {
  override name = 'HandleTakenError';
  constructor(
    readonly handle: string,
    readonly account: string,
  ) {
    super(`@${handle} already belongs to account ${account}; a handle belongs to one account.`);
  }
}

/** The account asked for already has another handle in `@handles` (its `_id` is the account). */
export class AccountHasHandleError extends Error {
  override name = 'AccountHasHandleError';
  constructor(
    readonly account: string,
    readonly handle: string,
  ) {
    super(`Account ${account} already has the handle @${handle}; an account has one handle.`);
  }
}

/**
 * Who holds a handle: its `@handles` entry, else the claim `token create` made for it, else (tokens
 * issued before claims existed) the account of the first token issued for it.
 */
export async function holderOfHandle(db: Database, handle: string): Promise<string | undefined> {
  const known = await db.handles.findOne({ handle }, { projection: { _id: 1 } });
  if (known) return known._id;
  const claim = await db.handleClaims.findOne({ _id: handle });
  if (claim) return claim.account;
  const first = await db.apiTokens.findOne(
    { handle },
    { sort: { created: 1, _id: 1 }, projection: { account: 1 } },
  );
  return first?.account;
}

/**
 * Which account a token for `handle` goes to, refusing before anything is written: a held handle
 * goes to its holder when the holder is a gateway account or `account` names it; a free handle
 * to `account` (or `newAccount`), unless that account has another handle already.
 */
async function accountFor(
  db: Database,
  handle: string,
  account: string | undefined,
  newAccount: string,
): Promise<string> {
  const holder = await holderOfHandle(db, handle);
  if (holder !== undefined) {
    if (account === undefined ? !isGatewayAccount(holder) : account !== holder)
      throw new HandleTakenError(handle, holder);
    return holder;
  }
  if (account !== undefined) {
    const existing = await db.handles.findOne({ _id: account });
    if (existing && existing.handle !== handle)
      throw new AccountHasHandleError(account, existing.handle);
  }
  return account ?? newAccount;
}

/**
 * Gives `handle` to an account where authors are found (`@handles`) and answers that account.
 * The claim's unique `_id` is the conditional write: of two runs for one new handle at once, the
 * second finds the first's claim and follows it (or is refused, by the same rule as above).
 */
export async function claimHandle(
  db: Database,
  handle: string,
  account: string | undefined,
  newAccount: string,
): Promise<string> {
  let holder = await accountFor(db, handle, account, newAccount);
  try {
    await db.handleClaims.insertOne({ _id: handle, account: holder, when: new Date() });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    holder = await accountFor(db, handle, account, newAccount);
  }
  await recordHandle(db, holder, handle);
  return holder;
}

/** Writes `@handles` `{_id: account, handle}` once; an account that has an entry keeps it. */
async function recordHandle(db: Database, account: string, handle: string): Promise<void> {
  try {
    await db.handles.insertOne({ _id: account, handle });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Start-up: accounts that hold tokens issued for a handle but have no `@handles` entry (tokens
 * issued before the handle was recorded there) get one, by their first token's handle. Idempotent;
 * a handle `@handles` or a claim gives to another account is left to it and reported.
 */
export async function recordTokenHandles(db: Database, logger: Logger): Promise<number> {
  const firsts = await db.apiTokens
    .aggregate<{ _id: string; handle: string }>([
      { $match: { handle: { $exists: true } } },
      { $sort: { created: 1, _id: 1 } },
      { $group: { _id: '$account', handle: { $first: '$handle' } } },
    ])
    .toArray();
  if (firsts.length === 0) return 0;
  const known = new Set(
    (
      await db.handles
        .find({ _id: { $in: firsts.map((row) => row._id) } }, { projection: { _id: 1 } })
        .toArray()
    ).map((row) => row._id),
  );
  let recorded = 0;
  for (const { _id: account, handle } of firsts) {
    if (known.has(account)) continue;
    const holder = await db.handles.findOne({ handle }, { projection: { _id: 1 } });
    if (holder && holder._id !== account) {
      logger.warn(
        { account, handle, holder: holder._id },
        'token handle held by another account; left to it',
      );
      continue;
    }
    try {
      await db.handleClaims.insertOne({ _id: handle, account, when: new Date() });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const claim = await db.handleClaims.findOne({ _id: handle });
      if (claim && claim.account !== account) {
        logger.warn(
          { account, handle, holder: claim.account },
          'token handle claimed by another account; left to it',
        );
        continue;
      }
    }
    await recordHandle(db, account, handle);
    recorded += 1;
  }
  return recorded;
}
