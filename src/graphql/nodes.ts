import { brandWithType } from '@pothos/core';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { NODES_MAX } from '../http/graphql-limits.js';
import { findChatMessages } from '../operations/chat/find-messages.js';
import { findKindItems } from '../operations/items/find-by-kind.js';
import { findAuthor } from '../operations/items/index.js';
import { runOperation } from '../operations/operation.js';
import { failWith } from '../operations/validation.js';
import { builder } from './builder.js';
import { ChatMessage } from './chat.js';
import { listCost } from './cost.js';
import { type NodeRef, parseGlobalId } from './global-ids.js';
import { AuthorRef } from './items.js';

const atMostNodes = z.looseObject({ ids: z.array(z.string()) }).superRefine((args, ctx) => {
  if (args.ids.length > NODES_MAX)
    failWith(ctx, 'TOO_MANY_IDS', `Too many ids. Maximum ${NODES_MAX} per request.`, {
      max: NODES_MAX,
    });
});

const picked = <T extends NodeRef['type']>(refs: (NodeRef | null)[], type: T) =>
  refs.flatMap((ref, at) =>
    ref?.type === type ? [{ ref: ref as Extract<NodeRef, { type: T }>, at }] : [],
  );

/**
 * The objects the ids name, in their order, null for an id that names nothing: each type read
 * through its operation, every kind and channel in one query for the whole list.
 */
async function loadNodes(ctx: RequestContext, ids: readonly string[]): Promise<unknown[]> {
  const refs = ids.map(parseGlobalId);
  const items = picked(refs, 'item');
  const messages = picked(refs, 'chat');
  const authors = picked(refs, 'author');
  const [foundItems, foundMessages, foundAuthors] = await Promise.all([
    items.length === 0
      ? []
      : runOperation(findKindItems, ctx, { refs: items.map(({ ref }) => ref) }),
    messages.length === 0
      ? []
      : runOperation(findChatMessages, ctx, { ids: messages.map(({ ref }) => ref.id) }),
    // A handle that is not one is no author: null, like any id that names nothing.
    Promise.all(
      authors.map(({ ref }) =>
        runOperation(findAuthor, ctx, { handle: ref.handle }).catch(() => null),
      ),
    ),
  ]);
  const nodes: unknown[] = ids.map(() => null);
  items.forEach(({ at }, index) => {
    nodes[at] = foundItems[index] ?? null;
  });
  messages.forEach(({ at }, index) => {
    const message = foundMessages[index];
    if (message) brandWithType(message, ChatMessage);
    nodes[at] = message ?? null;
  });
  authors.forEach(({ at }, index) => {
    const author = foundAuthors[index];
    if (author) brandWithType(author, AuthorRef);
    nodes[at] = author ?? null;
  });
  return nodes;
}

const Node = builder.nodeInterfaceRef();

builder.queryFields((t) => ({
  node: t.field({
    type: Node,
    nullable: true,
    description:
      'Any object with a global id (published items of every kind, chat messages, authors) by that id; null when the id names nothing. Reading an item counts a hit, as item(code:) does.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await loadNodes(ctx, [String(args.id)]))[0] ?? null,
  }),
  nodes: t.field({
    type: [Node],
    nullable: { list: false, items: true },
    description: `Up to ${NODES_MAX} objects by global id, in the order asked, null for an id that names nothing (unknown or malformed); one database query per collection for the whole list.`,
    args: { ids: t.arg.idList({ required: true }) },
    validate: { schema: atMostNodes },
    complexity: (args) => listCost(args.ids.length),
    resolve: (_root, args, ctx) => loadNodes(ctx, args.ids.map(String)) as Promise<never[]>,
  }),
}));
