import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { defineOperation } from '../operation.js';
import { handleField } from './inputs.js';
import { itemLoaders } from './loaders.js';
import { accountsOf } from './published-connection.js';

/** An author: a handle and the accounts that hold it. */
export interface Author {
  handle: string;
  accounts: string[];
}

/** The signed-in account and its handle (null when it has none). */
export interface ViewerAccount {
  account: string;
  handle: string | null;
}

const authorInput = z.object({ handle: handleField('handle') });

/**
 * An author by `@handle` (the @ is optional), or null when no account has it. Until a handle
 * belongs to one account, the works of every account under it are the author's.
 */
export const findAuthor = defineOperation({
  name: 'author',
  input: authorInput,
  async run(ctx: RequestContext, input: z.output<typeof authorInput>): Promise<Author | null> {
    const accounts = await accountsOf(ctx, input.handle);
    return accounts.length === 0 ? null : { handle: `@${input.handle}`, accounts };
  },
});

/** The bearer's own account, or null for an anonymous request. */
export const findViewer = defineOperation({
  name: 'viewer',
  input: z.object({}),
  async run(ctx: RequestContext): Promise<ViewerAccount | null> {
    if (!ctx.viewer) return null;
    const handle = await itemLoaders(ctx).handles.load(ctx.viewer.account);
    return { account: ctx.viewer.account, handle: handle ? `@${handle}` : null };
  },
});
