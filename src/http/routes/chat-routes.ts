import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import {
  CHAT_CACHE_TTL_MS,
  CHAT_CHANNELS,
  CHAT_INSTANCES,
  listChatMessages,
} from '../../operations/chat/index.js';
import { REPLAY_MAX, subscribeChatMessages } from '../../operations/chat/live/index.js';
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

/** What every live stream may answer besides its own input errors (the works stream's too). */
export const LIVE_STREAM_ERRORS: ErrorCode[] = [
  'CURSOR_INVALID',
  'METHOD_NOT_ALLOWED',
  'TOO_MANY_STREAMS',
  'SUBSCRIBERS_FULL',
  'DB_UNAVAILABLE',
  'INTERNAL',
];

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
        'UNAUTHENTICATED', // no token is needed, but one that is sent is checked
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
    {
      name: 'Live chat messages',
      operationId: 'chatMessagesStream',
      method: 'GET',
      path: '/api/chat-messages/stream',
      description:
        'New messages of the public chat channels as they are stored, as Server-Sent Events (text/event-stream), for as long as the client stays connected. Public: no token needed.',
      authentication: 'none',
      ...queryOperation(subscribeChatMessages, 'event-stream', {
        descriptions: {
          instance: 'Channel: system (the main chat), clock, or all (both).',
          search: 'Only messages whose text holds this, case-insensitively.',
          from: 'Only messages by this @handle (with or without the @).',
          after:
            'A message id of this stream (or a cursor of the GraphQL connection): first every message after it, then the live ones. A Last-Event-ID header wins over it.',
        },
      }),
      response: {
        statuses: [200],
        contentTypes: ['text/event-stream'],
        description: `A stream of events. Each new message is a \`message\` event whose data is the message as JSON (the fields below) and whose \`id\` is its (when, _id) cursor, or the higher cursor the stream already sent (a message of the other channel, or one stored late, can come after a newer one); a message marked deleted is a \`removed\` event with \`{ id, instance }\` (only on databases with change streams); comments every 15 s keep the connection alive. An EventSource that reconnects sends Last-Event-ID and receives every message it missed, once, in order (at most ${REPLAY_MAX} per connection), then the live ones. A \`close\` event (the error body, with \`resumeAfter\` for a subscriber that fell behind) precedes the end of a stream the service ends.`,
        schema: chatMessageSchema,
        descriptions: {
          id: 'Message id (a database object id as hex).',
          from: '@handle of the sender, or anon when the author has no handle.',
          text: 'Message body as posted.',
          when: 'ISO timestamp.',
          instance: 'Channel the message came from.',
          hearts: 'Heart reactions when the message was delivered.',
        },
      },
      errors: ['INSTANCE_INVALID', 'SEARCH_TOO_LONG', 'FROM_INVALID', ...LIVE_STREAM_ERRORS],
      examples: [
        {
          title: 'Follow the main chat live',
          request: {
            method: 'GET',
            path: '/api/chat-messages/stream',
            query: { instance: 'system' },
            stream: true,
          },
          response: {
            status: 200,
            body: {
              id: '6650f0c2a1b2c3d4e5f60718',
              from: '@jeffrey',
              text: 'hello',
              when: '2026-08-03T12:00:00.000Z',
              instance: 'system',
              hearts: 0,
            },
          },
        },
      ],
      notes: [
        'In a browser: new EventSource("/api/chat-messages/stream?instance=system"); it reconnects by itself and resumes after the last message it received.',
        'A database without change streams (a standalone mongod) is polled every CHAT_POLL_INTERVAL_MS; removals are then not reported.',
        'A client may hold SUBSCRIBERS_PER_CLIENT streams (more: 429 TOO_MANY_STREAMS); the service holds SUBSCRIBERS_MAX (more: 503 SUBSCRIBERS_FULL); both with Retry-After.',
      ],
      since: '1.1.0',
    },
  ];
}
