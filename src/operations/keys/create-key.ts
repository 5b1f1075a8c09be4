import { AppError } from '../../app-error.js';
import { issueKey } from '../../auth/api-tokens.js';
import { DEFAULT_KEY_SCOPES } from '../../auth/scopes.js';
import type { RequestContext } from '../../context.js';
import { createMongoRateLimiter } from '../../rate-limit/mongo-store.js';
import { defineOperation } from '../operation.js';
import { type CreateKeyInput, createKeyInput } from './inputs.js';
import { type KeyView, keyView } from './key-view.js';
import { keysMember } from './member.js';

/** Keys one account may make per hour, counted in the shared database so every instance agrees. */
export const KEYS_PER_HOUR = 20;
const keyLimit = { limit: KEYS_PER_HOUR, windowSeconds: 3600 };

const DAY_MS = 86_400_000;

export type CreatedKey = KeyView & { key: string };

export const createKey = defineOperation({
  name: 'createKey',
  input: createKeyInput,
  async run(ctx: RequestContext, input: CreateKeyInput): Promise<CreatedKey> {
    const member = keysMember(ctx);
    const { db } = ctx.services;
    const decision = await createMongoRateLimiter(keyLimit, db.rateLimits).hit(
      `keys:${member.account}`,
    );
    if (!decision.allowed)
      throw new AppError(
        'RATE_LIMITED',
        `Too many keys made; at most ${KEYS_PER_HOUR} an hour. Try again in ${decision.retryAfterSeconds} seconds.`,
        { retryAfter: decision.retryAfterSeconds },
      );
    const { key, record } = await issueKey(db, {
      account: member.account,
      name: input.name,
      scopes: input.scopes ?? DEFAULT_KEY_SCOPES,
      ...(input.expiresInDays
        ? { expires: new Date(Date.now() + input.expiresInDays * DAY_MS) }
        : {}),
    });
    return { ...keyView(record), key };
  },
});
