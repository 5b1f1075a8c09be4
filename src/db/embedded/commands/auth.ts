import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Binary, type Document } from 'bson';
import { hmac, sha256 } from '../credentials.js';
import { CommandError } from '../errors.js';
import type { Handler } from './common.js';

const authFailed = () => new CommandError(18, 'AuthenticationFailed', 'Authentication failed.');

const payloadText = (command: Document): string => {
  const payload = command.payload;
  if (payload instanceof Binary)
    return Buffer.from(payload.buffer.subarray(0, payload.position)).toString('utf8');
  if (typeof payload === 'string') return payload;
  throw authFailed();
};

const attributes = (text: string): Map<string, string> =>
  new Map(
    text
      .split(',')
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );

const reply = (conversationId: number, done: boolean, text: string): Document => ({
  conversationId,
  done,
  payload: new Binary(Buffer.from(text, 'utf8')),
});

/** SCRAM-SHA-256 (RFC 7677), the server side: `saslStart` then `saslContinue`. */
const saslStart: Handler = (command, _db, context) => {
  const { credentials, connection } = context;
  if (!credentials || command.mechanism !== 'SCRAM-SHA-256') throw authFailed();
  const message = payloadText(command);
  if (!message.startsWith('n,,')) throw authFailed();
  const clientFirstBare = message.slice(3);
  const fields = attributes(clientFirstBare);
  const clientNonce = fields.get('r');
  if (fields.get('n') !== credentials.user || !clientNonce) throw authFailed();
  const nonce = clientNonce + randomBytes(24).toString('base64');
  const serverFirst = `r=${nonce},s=${credentials.salt.toString('base64')},i=${credentials.iterations}`;
  const skipEmpty = (command.options as Document | undefined)?.skipEmptyExchange === true;
  connection.auth = { clientFirstBare, serverFirst, nonce, skipEmpty };
  return reply(1, false, serverFirst);
};

const saslContinue: Handler = (command, _db, context) => {
  const { credentials, connection } = context;
  const { clientFirstBare, serverFirst, nonce } = connection.auth as Record<
    string,
    string | undefined
  >;
  if (!credentials || !clientFirstBare || !serverFirst) throw authFailed();
  if (connection.auth.verified) {
    connection.auth = {};
    return reply(1, true, '');
  }
  const clientFinal = payloadText(command);
  const fields = attributes(clientFinal);
  const proof = Buffer.from(fields.get('p') ?? '', 'base64');
  if (fields.get('r') !== nonce || proof.length !== 32) throw authFailed();
  const withoutProof = clientFinal.slice(0, clientFinal.lastIndexOf(',p='));
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const signature = hmac(credentials.storedKey, authMessage);
  const clientKey = Buffer.from(proof.map((byte, i) => byte ^ (signature[i] as number)));
  if (!timingSafeEqual(sha256(clientKey), credentials.storedKey)) throw authFailed();
  connection.mustAuthenticate = false;
  connection.auth = { ...connection.auth, verified: true };
  const serverSignature = hmac(credentials.serverKey, authMessage).toString('base64');
  // The driver asks to skip the last, empty round trip: done now.
  return reply(1, connection.auth.skipEmpty === true, `v=${serverSignature}`);
};

export const authCommands: Record<string, Handler> = { saslStart, saslContinue };
