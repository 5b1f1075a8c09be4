import { z } from 'zod';
import {
  CHAT_CACHE_TTL_MS,
  CHAT_CHANNELS,
  CHAT_INSTANCES,
  listChatMessages,
} from '../../operations/chat/index.js';
import { queryOperation, type RouteSpec } from './route-spec.js';

export const chatMessageSchema = z.object({
  id: z.string().describe('Message id (a database object id as hex).'),
  from: z.string().describe('@handle of the sender, or anon when the author has no handle.'),
  text: z.string().describe('Message body as posted.'),
  when: z.string().describe('ISO timestamp.'),
  instance: z.enum(CHAT_CHANNELS).describe('Channel the message came from.'),
  hearts: z.number().int().describe('Heart reactions.'),
});

export const chatPageSchema = z.object({
  instance: z.enum(CHAT_INSTANCES),
  search: z.string().optional(),
  count: z.number().int(),
  messages: z.array(chatMessageSchema),
  nextBefore: z.string().nullable(),
});

export function chatRoutes(): RouteSpec[] {
  return [
    {
      name: 'Chat messages',
      operationId: 'chatMessages',
      method: 'GET',
      path: '/api/chat-messages',
      aliases: ['/api/chat/messages'],
      description: 'Reads recent messages of the public chat channels. Public: no token needed.',
      authentication: 'none',
      ...queryOperation(listChatMessages, 'cached-page', {
        descriptions: {
          instance: 'Channel: system (the main chat), clock, or all (both).',
          limit: 'Messages per page; more than the maximum answers 400 LIMIT_TOO_LARGE.',
          before:
            'ISO-8601 timestamp: only messages strictly older; pass the previous page\u2019s nextBefore.',
          search: 'Case-insensitive substring of the text; results come newest first.',
          from: 'Only messages by this @handle (with or without the @).',
        },
        legacy: {
          q: { sameAs: 'search', description: 'Alias of search; search wins when both are sent.' },
        },
      }),
      response: {
        statuses: [200],
        description: `One page, cached for ${CHAT_CACHE_TTL_MS / 1000} seconds. Oldest first without a search term, newest first with one.`,
        schema: chatPageSchema,
        descriptions: {
          instance: 'The queried channel.',
          search: 'The search term, when one was given.',
          count: 'Messages in this page.',
          messages: 'The messages.',
          nextBefore:
            'Time of the oldest message in the page (pass it as before); null when the page is empty.',
        },
      },
      errors: [
        'LIMIT_INVALID',
        'LIMIT_TOO_LARGE',
        'BEFORE_INVALID',
        'INSTANCE_INVALID',
        'SEARCH_TOO_LONG',
        'FROM_INVALID',
        'METHOD_NOT_ALLOWED',
        'DB_UNAVAILABLE',
        'BUSY',
        'INTERNAL',
      ],
      examples: [
        {
          title: 'Read the latest messages of the main chat',
          request: {
            method: 'GET',
            path: '/api/chat-messages',
            query: { instance: 'system', limit: 20 },
          },
          response: {
            status: 200,
            body: {
              instance: 'system',
              count: 1,
              messages: [
                {
                  id: '6650f0c2a1b2c3d4e5f60718',
                  from: '@jeffrey',
                  text: 'hello',
                  when: '2026-08-03T12:00:00.000Z',
                  instance: 'system',
                  hearts: 2,
                },
              ],
              nextBefore: '2026-08-03T12:00:00.000Z',
            },
          },
        },
        {
          title: 'Search both channels',
          request: {
            method: 'GET',
            path: '/api/chat-messages',
            query: { instance: 'all', search: 'melody' },
          },
          response: {
            status: 200,
            body: { instance: 'all', search: 'melody', count: 0, messages: [], nextBefore: null },
          },
        },
      ],
      notes: ['Page backwards: send the previous nextBefore as before; stop when count is 0.'],
    },
  ];
}
