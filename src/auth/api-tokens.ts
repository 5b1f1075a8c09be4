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

export interface CreatedToken {
  token: string;
  record: ApiTokenRecord;
}

/** The account of an existing `@handles` entry, or a new account id for a handle not seen before. */
async function accountForHandle(db: Database, handle: string): Promise<string> {
  const existing = await db.handles.findOne({ handle }, { projection: { _id: 1 } });
  return existing?._id ?? `gateway|${randomBytes(12).toString('hex')}`;
}

export async function createApiToken(
  db: Database,
  input: { handle: string; account?: string; label?: string },
): Promise<CreatedToken> {
  const handle = normalizeHandle(input.handle);
  if (!isValidHandle(handle))
    throw new Error(`not a valid handle: ${JSON.stringify(input.handle)}`);
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: ApiTokenRecord = {
    _id: hashToken(token),
    account: input.account ?? (await accountForHandle(db, handle)),
    handle,
    prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
    created: new Date(),
    ...(input.label ? { label: input.label } : {}),
  };
  await db.apiTokens.insertOne(record);
  return { token, record };
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
