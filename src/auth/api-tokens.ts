import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { ApiTokenRecord } from '../db/collections.js';

/** API tokens are random and opaque, shown once, and stored only as SHA-256 hashes. */
const API_TOKEN_PREFIX = 'pgw_';
/** `token list` shows this much of a token, and `token revoke` accepts it. */
const SHOWN_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const looksLikeApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

const normalizeHandle = (handle: string) => handle.trim().replace(/^@/, '');

/** A handle as `@handles` stores it (the leading @ is optional here). */
export const isValidHandle = (handle: string) =>
  /^[a-z0-9][a-z0-9._-]{0,31}$/i.test(normalizeHandle(handle));

/** The account a handle already belongs to: its `@handles` entry, else the first token issued for it. */
async function ownerOfHandle(db: Database, handle: string): Promise<string | undefined> {
  const known = await db.handles.findOne({ handle }, { projection: { _id: 1 } });
  if (known) return known._id;
  const first = await db.apiTokens.findOne(
    { handle },
    { sort: { created: 1, _id: 1 }, projection: { account: 1 } },
  );
  return first?.account;
}

/** `--account` named an account other than the one the handle already belongs to. */
export class HandleTakenError extends Error {
  override name = 'HandleTakenError';
  constructor(
    readonly handle: string,
    readonly account: string,
  ) {
    super(`@${handle} already belongs to account ${account}; a handle belongs to one account.`);
  }
}

export interface CreatedToken {
  token: string;
  record: ApiTokenRecord;
  /** The handle was new: a new account was made for it. */
  newAccount: boolean;
}

/**
 * Issues a token for the account the handle belongs to, or, for a handle not seen before, for a
 * new account (or `account`). A handle belongs to one account: naming another one is refused, and
 * two first tokens for one handle issued at once end up on one account.
 */
export async function createApiToken(
  db: Database,
  input: { handle: string; account?: string; label?: string },
): Promise<CreatedToken> {
  const handle = normalizeHandle(input.handle);
  if (!isValidHandle(handle))
    throw new Error(`not a valid handle: ${JSON.stringify(input.handle)}`);
  const owner = await ownerOfHandle(db, handle);
  if (owner !== undefined && input.account !== undefined && input.account !== owner)
    throw new HandleTakenError(handle, owner);
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: ApiTokenRecord = {
    _id: hashToken(token),
    account: owner ?? input.account ?? `gateway|${randomBytes(12).toString('hex')}`,
    handle,
    prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
    created: new Date(),
    ...(input.label ? { label: input.label } : {}),
  };
  await db.apiTokens.insertOne(record);
  let newAccount = owner === undefined;
  if (owner === undefined) {
    // Another first token for this handle may have landed meanwhile: the earliest one decides.
    const settled = await ownerOfHandle(db, handle);
    if (settled !== undefined && settled !== record.account) {
      await db.apiTokens.updateOne({ _id: record._id }, { $set: { account: settled } });
      record.account = settled;
      newAccount = false;
    }
  }
  return { token, record, newAccount };
}

export async function listApiTokens(db: Database): Promise<ApiTokenRecord[]> {
  return db.apiTokens.find({}, { sort: { created: 1 } }).toArray();
}

/** Revokes by token prefix (as `token list` shows it) or by the whole token. Returns how many were revoked. */
export async function revokeApiToken(db: Database, tokenOrPrefix: string): Promise<number> {
  const filter =
    tokenOrPrefix.length > SHOWN_PREFIX_LENGTH
      ? { _id: hashToken(tokenOrPrefix) }
      : { prefix: tokenOrPrefix };
  const result = await db.apiTokens.updateMany(
    { ...filter, revoked: { $exists: false } },
    { $set: { revoked: new Date() } },
  );
  return result.modifiedCount;
}

export async function findActiveApiToken(
  db: Database,
  token: string,
): Promise<ApiTokenRecord | null> {
  const record = await db.apiTokens.findOne({ _id: hashToken(token) });
  return record && !record.revoked ? record : null;
}
