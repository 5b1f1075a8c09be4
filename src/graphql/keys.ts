import { SCOPES } from '../auth/scopes.js';
import {
  createKey,
  KEY_DAYS_MAX,
  KEYS_PER_HOUR,
  type KeyView,
  listKeys,
  revokeKey,
} from '../operations/keys/index.js';
import { runOperation } from '../operations/operation.js';
import { builder } from './builder.js';

const KeyScope = builder.enumType('KeyScope', {
  description:
    'What a key may do: publish works as its account, keys manages the account\u2019s keys.',
  values: SCOPES,
});

const ApiKey = builder.objectRef<KeyView>('ApiKey').implement({
  description: 'One of the viewer\u2019s keys, without its secret.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The key id: revokeApiKey(id:) takes it.' }),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key.' }),
    scopes: t.field({ type: [KeyScope], resolve: (key) => key.scopes }),
    created: t.exposeString('created', { description: 'ISO time it was made.' }),
    expires: t.exposeString('expires', {
      nullable: true,
      description: 'ISO time it stops working.',
    }),
    lastUsed: t.exposeString('lastUsed', {
      nullable: true,
      description: 'ISO time it was last used (to the minute).',
    }),
  }),
});

const CreatedApiKey = builder.objectRef<KeyView & { key: string }>('CreatedApiKey').implement({
  description: 'A new key: key is its secret, shown only this once.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Send it as Authorization: Bearer <key>.' }),
    apiKey: t.field({ type: ApiKey, resolve: (created) => created }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKey],
    description:
      'The viewer\u2019s keys that are not revoked, newest first (signed in, a JWT from the issuer, or a key with the keys scope).',
    resolve: async (_root, _args, ctx) => (await runOperation(listKeys, ctx, {})).keys,
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description: `Makes a key for the viewer\u2019s own account (at most ${KEYS_PER_HOUR} an hour).`,
    args: {
      name: t.arg.string({ required: true, description: 'What the key is for.' }),
      scopes: t.arg({ type: [KeyScope], description: 'Default [publish].' }),
      expiresInDays: t.arg.int({ description: `1 to ${KEY_DAYS_MAX}; default never.` }),
    },
    resolve: (_root, args, ctx) => runOperation(createKey, ctx, args),
  }),
  revokeApiKey: t.field({
    type: 'Boolean',
    description:
      'Revokes one of the viewer\u2019s keys (another member\u2019s id is KEY_NOT_FOUND); true once revoked.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => (await runOperation(revokeKey, ctx, args)).revoked,
  }),
}));
