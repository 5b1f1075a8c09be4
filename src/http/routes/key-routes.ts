import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import { SCOPES } from '../../auth/scopes.js';
import { whoAmI } from '../../operations/account/who-am-i.js';
import {
  createKey,
  KEY_DAYS_MAX,
  KEYS_PER_HOUR,
  listKeys,
  revokeKey,
} from '../../operations/keys/index.js';
import { bodyOperation, POST_ERRORS, queryOperation, type RouteSpec } from './route-spec.js';

const keySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  created: z.string(),
  expires: z.string().nullable(),
  lastUsed: z.string().nullable(),
});

const keyDescriptions = {
  id: 'The key id: DELETE /api/keys/<id> revokes it.',
  name: 'What its member called it.',
  prefix: 'The first characters of the key, to recognise it.',
  scopes: 'What it may do: publish (work as the account), keys (manage the account\u2019s keys).',
  created: 'ISO time it was made.',
  expires: 'ISO time it stops working, or null.',
  lastUsed: 'ISO time it was last used (to the minute), or null.',
};

const MEMBER_ERRORS: ErrorCode[] = ['UNAUTHENTICATED', 'INSUFFICIENT_SCOPE', 'ORIGIN_NOT_ALLOWED'];
const READ_ERRORS: ErrorCode[] = [
  ...MEMBER_ERRORS,
  'METHOD_NOT_ALLOWED',
  'DB_UNAVAILABLE',
  'INTERNAL',
];

const example = {
  id: 'key_5c1f0a9e2b7d4c3a18',
  name: 'my assistant',
  prefix: 'pgw_Xk3vQ9',
  scopes: ['publish'],
  created: '2026-11-27T10:00:00.000Z',
  expires: '2027-02-25T10:00:00.000Z',
  lastUsed: null,
};

/** A member's own keys (src/operations/keys/): signed in, a JWT from the issuer, or a key with the keys scope. */
export function keyRoutes(): RouteSpec[] {
  return [
    {
      name: 'Who am I',
      operationId: 'whoAmI',
      method: 'GET',
      path: '/api/me',
      description:
        'Who the request acts for: the account signed in on the site (its cookie), or of the bearer token; anonymous otherwise. Pages ask it from their own script, so no page a cache shares carries a member\u2019s name.',
      authentication: 'optional',
      ...queryOperation(whoAmI, 'private', { descriptions: {} }),
      response: {
        statuses: [200],
        description: 'The account, or nulls when anonymous. Never cached by a shared cache.',
        schema: z.object({
          account: z.string().nullable(),
          handle: z.string().nullable(),
          via: z.enum(['session', 'key', 'jwt']).nullable(),
          signIn: z.string().nullable(),
          signOut: z.string().nullable(),
        }),
        descriptions: {
          account: 'The account id, or null.',
          handle: 'Its @handle, or null.',
          via: 'session (signed in on the site), key or jwt (a bearer token), or null.',
          signIn: 'Path of the plain sign-in link, or null when the site has no sign-in.',
          signOut: 'Path a signed-in page POSTs to sign out, or null.',
        },
      },
      errors: ['UNAUTHENTICATED', 'METHOD_NOT_ALLOWED', 'DB_UNAVAILABLE', 'INTERNAL'],
      examples: [
        {
          title: 'Ask who a key belongs to',
          request: { method: 'GET', path: '/api/me' },
          response: {
            status: 200,
            body: { account: null, handle: null, via: null, signIn: null, signOut: null },
          },
        },
      ],
    },
    {
      name: 'Create key',
      operationId: 'createApiKey',
      method: 'POST',
      path: '/api/keys',
      description: `Makes a key for the caller\u2019s own account (for an assistant: SERVICE_TOKEN of publish-mcp, or a bearer token). The key is shown only in this answer and stored hashed. At most ${KEYS_PER_HOUR} an hour per account.`,
      authentication: 'required',
      ...bodyOperation(createKey, 'created', {
        descriptions: {
          name: 'What the key is for, such as "my assistant".',
          scopes: `What it may do: ${SCOPES.join(', ')}; default publish.`,
          expiresInDays: `Days until it stops working, 1 to ${KEY_DAYS_MAX}; default never.`,
        },
      }),
      response: {
        statuses: [201],
        description: 'The new key, with its secret (key) shown only this once.',
        schema: keySchema.extend({ key: z.string() }),
        descriptions: {
          ...keyDescriptions,
          key: 'The key itself: send it as Authorization: Bearer <key>.',
        },
      },
      errors: [...MEMBER_ERRORS, 'NAME_INVALID', ...POST_ERRORS],
      examples: [
        {
          title: 'Make a key for an assistant',
          request: {
            method: 'POST',
            path: '/api/keys',
            withToken: true,
            body: { name: 'my assistant', expiresInDays: 90 },
          },
          response: { status: 201, body: { ...example, key: 'pgw_Xk3vQ9...' } },
        },
      ],
    },
    {
      name: 'List keys',
      operationId: 'apiKeys',
      method: 'GET',
      path: '/api/keys',
      description:
        'Lists the caller\u2019s own keys that are not revoked, newest first, without their secrets.',
      authentication: 'required',
      ...queryOperation(listKeys, 'private', { descriptions: {} }),
      response: {
        statuses: [200],
        description: 'The keys.',
        schema: z.object({ keys: z.array(keySchema) }),
        descriptions: { keys: 'The keys, newest first.' },
      },
      errors: READ_ERRORS,
      examples: [
        {
          title: 'List my keys',
          request: { method: 'GET', path: '/api/keys', withToken: true },
          response: { status: 200, body: { keys: [example] } },
        },
      ],
    },
    {
      name: 'Revoke key',
      operationId: 'revokeApiKey',
      method: 'DELETE',
      path: '/api/keys/{id}',
      description:
        'Revokes one of the caller\u2019s keys: within a second it answers 401 on every face and every instance. Another member\u2019s key id answers 404.',
      authentication: 'required',
      ...queryOperation(revokeKey, 'no-content', {
        descriptions: { id: 'The key id, as POST or GET /api/keys answers it.' },
      }),
      response: {
        statuses: [204],
        description: 'Revoked; no body.',
        schema: z.null(),
        contentTypes: [],
      },
      errors: ['KEY_NOT_FOUND', ...READ_ERRORS],
      examples: [
        {
          title: 'Revoke a key',
          request: { method: 'DELETE', path: '/api/keys/key_5c1f0a9e2b7d4c3a18', withToken: true },
          response: { status: 204, body: null },
        },
      ],
    },
  ];
}
