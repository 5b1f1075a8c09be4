import { z } from 'zod';
import { REPLAY_MAX } from '../../operations/chat/live/index.js';
import { subscribeWorks, WORKS_STREAM_TYPE } from '../../operations/events/subscribe-works.js';
import { ITEM_KINDS } from '../../operations/items/item.js';
import { LIVE_STREAM_ERRORS } from './chat-routes.js';
import { queryOperation, type RouteSpec } from './route-spec.js';

/** An event's `data`: the same on the works stream, the subscription and webhooks. */
export const workEventDataSchema = z.object({
  kind: z.enum(ITEM_KINDS).describe('The kind of work.'),
  code: z.string().describe('Its code (without clock~ for a melody).'),
  url: z.string().describe('Where it is viewed.'),
  author: z
    .string()
    .nullable()
    .describe('@handle of its author; null when anonymous or without a handle.'),
  remixOf: z
    .string()
    .nullable()
    .describe('The work it was remixed from (clock~<code> for a melody); null for an original.'),
  when: z.string().describe('When it was published (ISO 8601).'),
});

export function eventRoutes(): RouteSpec[] {
  return [
    {
      name: 'Live works',
      operationId: 'worksStream',
      method: 'GET',
      path: '/api/works/stream',
      description:
        'Each work as it is published, on any instance of the service, as Server-Sent Events (text/event-stream), for as long as the client stays connected. Public: no token needed.',
      authentication: 'none',
      ...queryOperation(subscribeWorks, 'event-stream', {
        descriptions: {
          kind: `Only works of this kind: ${ITEM_KINDS.join(', ')}.`,
          author: 'Only works by this @handle (with or without the @).',
          after:
            'The id of an event of this stream: first every event after it, then the live ones. A Last-Event-ID header wins over it.',
        },
      }),
      response: {
        statuses: [200],
        contentTypes: ['text/event-stream'],
        description: `A stream of events named by their type (${WORKS_STREAM_TYPE} only: take-downs and restores go to webhooks); each one's data is the work as JSON (the fields below, the same \`data\` webhooks receive) and its \`id\` a cursor in the order the service recorded them. An EventSource that reconnects sends Last-Event-ID and receives every event it missed, once, in order (at most ${REPLAY_MAX} per connection), then the live ones; comments every 15 s keep the connection alive. A \`close\` event (the error body, with \`resumeAfter\` for a subscriber that fell behind) precedes the end of a stream the service ends.`,
        schema: workEventDataSchema,
        descriptions: {
          kind: 'The kind of work.',
          code: 'Its code.',
          url: 'Where it is viewed.',
          author: '@handle of its author, or null.',
          remixOf: 'The work it was remixed from, or null.',
          when: 'When it was published.',
        },
      },
      errors: ['INVALID_INPUT', 'HANDLE_INVALID', ...LIVE_STREAM_ERRORS],
      examples: [
        {
          title: 'Follow new KidLisp programs',
          request: {
            method: 'GET',
            path: '/api/works/stream',
            query: { kind: 'kidlisp' },
            stream: true,
          },
          response: {
            status: 200,
            body: {
              kind: 'kidlisp',
              code: 'k7x',
              url: 'https://example.net/k7x',
              author: '@jeffrey',
              remixOf: null,
              when: '2026-08-03T12:00:00.000Z',
            },
          },
        },
      ],
      notes: [
        'In a browser: new EventSource("/api/works/stream").addEventListener("work.published", ...); it reconnects by itself and resumes after the last event it received.',
        'Every instance reads the recorded events every EVENTS_POLL_INTERVAL_MS, so a work published through another instance arrives within that time.',
      ],
      since: '1.1.0',
    },
  ];
}
