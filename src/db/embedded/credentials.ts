import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The one account a TCP listener accepts, with the SCRAM-SHA-256 keys derived from it. */
export interface Credentials {
  user: string;
  password: string;
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

const ITERATIONS = 15_000;
const FILE = 'credentials.json';

export const hmac = (key: Buffer, text: string | Buffer) =>
  createHmac('sha256', key).update(text).digest();
export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function derive(user: string, password: string, salt: Buffer, iterations: number): Credentials {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  return {
    user,
    password,
    salt,
    iterations,
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}

/**
 * The credentials kept in `<dir>/credentials.json` (0600), generated on first use: user
 * `gateway`, a random password of 32 URL-safe characters.
 */
export function loadCredentials(dir: string): Credentials {
  const path = join(dir, FILE);
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as {
      user: string;
      password: string;
      salt: string;
      iterations: number;
    };
    return derive(saved.user, saved.password, Buffer.from(saved.salt, 'base64'), saved.iterations);
  }
  const created = {
    user: 'gateway',
    password: randomBytes(24).toString('base64url'),
    salt: randomBytes(16).toString('base64'),
    iterations: ITERATIONS,
  };
  writeFileSync(path, `${JSON.stringify(created)}\n`, { mode: 0o600, flag: 'wx' });
  return derive(created.user, created.password, Buffer.from(created.salt, 'base64'), ITERATIONS);
}
