import { z } from 'zod';
import { SCOPES } from '../../auth/scopes.js';

export const KEY_NAME_MAX = 100;
export const KEY_DAYS_MAX = 365;

export const createKeyInput = z.object({
  name: z
    .string({ error: 'name must be a string naming the key, such as "my assistant".' })
    .trim()
    .min(1, 'name is empty: name the key, such as "my assistant".')
    .max(KEY_NAME_MAX, `name is longer than ${KEY_NAME_MAX} characters.`),
  scopes: z
    .array(z.enum(SCOPES, { error: `each scope must be one of: ${SCOPES.join(', ')}.` }), {
      error: `scopes must be a list of: ${SCOPES.join(', ')}.`,
    })
    .min(1, 'scopes is empty: give at least one scope, or leave it out for publish.')
    .optional()
    .nullable(),
  expiresInDays: z
    .number({ error: `expiresInDays must be a whole number of days, 1 to ${KEY_DAYS_MAX}.` })
    .int(`expiresInDays must be a whole number of days, 1 to ${KEY_DAYS_MAX}.`)
    .min(1, `expiresInDays must be a whole number of days, 1 to ${KEY_DAYS_MAX}.`)
    .max(KEY_DAYS_MAX, `expiresInDays must be a whole number of days, 1 to ${KEY_DAYS_MAX}.`)
    .optional()
    .nullable(),
});
export type CreateKeyInput = z.output<typeof createKeyInput>;

export const listKeysInput = z.object({});

export const revokeKeyInput = z.object({
  id: z.string({ error: 'id must be the key id, such as key_3f2a....' }).trim().min(1).max(100),
});
