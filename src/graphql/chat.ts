import { z } from 'zod';
import {
  CHAT_INSTANCES,
  CHAT_LIMIT_DEFAULT,
  CHAT_LIMIT_MAX,
  CHAT_SEARCH_MAX,
  type ChatEntry,
  chatLoaders,
  chatMessagesConnection,
  heartsOf,
  senderOf,
} from '../operations/chat/index.js';
import { runOperation } from '../operations/operation.js';
import { failWith } from '../operations/validation.js';
import { builder } from './builder.js';
import { pageCost } from './cost.js';

/**
 * A Relay rule of the GraphQL face alone, checked by plugin-zod before the resolver runs (a
 * check, no transform); the operation validates its own input in runOperation.
 */
const oneDirection = z.looseObject({}).superRefine((args, ctx) => {
  if (args.first != null && args.last != null)
    failWith(ctx, 'LIMIT_INVALID', 'Pass first or last, not both.');
});

export const ChatInstance = builder.enumType('ChatInstance', {
  description: 'A chat channel: system (the main chat), clock, or all (both).',
  values: CHAT_INSTANCES,
});

export const ChatMessage = builder.objectRef<ChatEntry>('ChatMessage').implement({
  description: 'A public chat message.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', {
      nullable: false,
      description:
        'The id the chat gives it (REST answers the same), unique across every type; Query.node takes it.',
    }),
    from: t.string({
      nullable: false,
      description: '@handle of the sender, or anon when the author has no handle.',
      resolve: (message, _args, ctx) =>
        message.presented?.from ?? senderOf(chatLoaders(ctx), message.user),
    }),
    text: t.exposeString('text', { nullable: false, description: 'The message as posted.' }),
    when: t.expose('when', { type: 'DateTime', nullable: false }),
    instance: t.exposeString('instance', {
      nullable: false,
      description: 'The channel of the message: system or clock.',
    }),
    hearts: t.int({
      nullable: false,
      description: 'Heart reactions to the message.',
      resolve: (message, _args, ctx) =>
        message.presented?.hearts ?? heartsOf(chatLoaders(ctx), message),
    }),
  }),
});

builder.queryFields((t) => ({
  chatMessages: t.connection(
    {
      type: ChatMessage,
      description: `Public chat messages, edges oldest first. Page backwards with last/before (the default is the latest 50) or forwards with first/after; at most ${CHAT_LIMIT_MAX} per page.`,
      args: {
        instance: t.arg({ type: ChatInstance, description: 'system (default), clock or all.' }),
        search: t.arg.string({
          description: `Case-insensitive substring of the text (at most ${CHAT_SEARCH_MAX} characters).`,
        }),
        from: t.arg.string({ description: 'Only messages by this @handle (the @ is optional).' }),
      },
      validate: { schema: oneDirection },
      complexity: pageCost(CHAT_LIMIT_DEFAULT),
      edgesNullable: { list: false, items: false },
      nodeNullable: false,
      resolve: (_root, args, ctx) => runOperation(chatMessagesConnection, ctx, args),
    },
    { name: 'ChatMessageConnection' },
    { name: 'ChatMessageEdge' },
  ),
}));
