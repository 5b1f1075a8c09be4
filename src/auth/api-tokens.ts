import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { ApiTokenRecord } from '../db/collections.js';
import { claimHandle, GATEWAY_ACCOUNT_PREFIX } from './handle-claims.js';
import { OPERATOR_TOKEN_SCOPES, type Scope } from './scopes.js';

export { HandleTakenError } from './handle-claims.js';

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

export interface CreatedToken {
  token: string;
  record: ApiTokenRecord;
  /** The handle was new: a new account was made for it. */
  newAccount: boolean;
}

/** What a new key is: its owner, what it may do, until when, and what its owner calls it. */
export interface KeyRequest {
  account: string;
  scopes: readonly Scope[];
  name?: string;
  handle?: string;
  label?: string;
  expires?: Date;
}

/** Makes a key (a member's from `POST /api/keys`, or `token create`'s): shown once, stored as its hash. */
export async function issueKey(
  db: Database,
  request: KeyRequest,
): Promise<{ key: string; record: ApiTokenRecord }> {
  const key = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: ApiTokenRecord = {
    _id: hashToken(key),
    id: `key_${randomBytes(9).toString('hex')}`,
    account: request.account,
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
    scopes: [...request.scopes],
    created: new Date(),
    ...(request.handle ? { handle: request.handle } : {}),
    ...(request.name ? { name: request.name } : {}),
    ...(request.label ? { label: request.label } : {}),
    ...(request.expires ? { expires: request.expires } : {}),
  };
  await db.apiTokens.insertOne(record);
  return { key, record };
}

/**
 * Issues a token for the account the handle belongs to, or, for a handle not seen before, for a
 * new account (or `account`), and records the handle in `@handles`, where authors are found
 * (src/auth/handle-claims.ts decides who may have it; a refusal writes nothing).
 */
export async function createApiToken(
  db: Database,
  input: { handle: string; account?: string; label?: string; scopes?: readonly Scope[] },
): Promise<CreatedToken> {
  const handle = normalizeHandle(input.handle);
  if (!isValidHandle(handle))
    throw new Error(`not a valid handle: ${JSON.stringify(input.handle)}`);
  const made = `${GATEWAY_ACCOUNT_PREFIX}${randomBytes(12).toString('hex')}`;
  const account = await claimHandle(db, handle, input.account, made);
  const { key, record } = await issueKey(db, {
    account,
    handle,
    scopes: input.scopes ?? OPERATOR_TOKEN_SCOPES,
    ...(input.label ? { label: input.label } : {}),
  });
  return { token: key, record, newAccount: account === made };
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

/** The key's record when it is neither revoked nor expired. */
export async function findActiveApiToken(
  db: Database,
  token: string,
): Promise<ApiTokenRecord | null> {
  const record = await db.apiTokens.findOne({ _id: hashToken(token) });
  if (!record || record.revoked) return null;
  return record.expires && record.expires.getTime() <= Date.now() ? null : record;
}
