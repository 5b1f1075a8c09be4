import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';

/** How long a sign-in on the site lasts. */
export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a sign-in for `account`; answers the cookie's value, stored only as its hash. */
export async function startSession(db: Database, account: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.sessions.insertOne({
    _id: hashOf(token),
    account,
    created: new Date(now),
    expires: new Date(now + SESSION_DAYS * DAY_MS),
  });
  return token;
}

/** The account a sign-in cookie names, read from the database each time (sign-out ends it everywhere). */
export async function sessionAccount(db: Database, token: string): Promise<string | null> {
  const session = await db.sessions.findOne({ _id: hashOf(token) });
  if (!session || session.expires.getTime() <= Date.now()) return null;
  return session.account;
}

export async function endSession(db: Database, token: string): Promise<void> {
  await db.sessions.deleteOne({ _id: hashOf(token) });
}
