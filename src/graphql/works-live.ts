import type { WorkEventData } from '../operations/events/event-types.js';
import { subscribeWorks } from '../operations/events/subscribe-works.js';
import type { WorkStreamEvent } from '../operations/events/works-hub.js';
import { runOperation } from '../operations/operation.js';
import { builder } from './builder.js';
import { type Delivery, delivered, deliveries } from './chat-live.js';
import { ItemKindEnum } from './items.js';

type PublishedWork = WorkEventData & { cursor: string };

const WorkPublished = builder.objectRef<PublishedWork>('WorkPublished').implement({
  description:
    'A work just published: the same data as the works stream (GET /api/works/stream) and webhooks carry.',
  fields: (t) => ({
    kind: t.field({ type: ItemKindEnum, nullable: false, resolve: (work) => work.kind }),
    code: t.exposeString('code', { nullable: false }),
    url: t.exposeString('url', { nullable: false }),
    author: t.exposeString('author', {
      nullable: true,
      description: '@handle of its author; null when anonymous or without a handle.',
    }),
    remixOf: t.exposeString('remixOf', {
      nullable: true,
      description:
        'The work it was remixed from (clock~<code> for a melody); null for an original.',
    }),
    when: t.exposeString('when', {
      nullable: false,
      description: 'When it was published (ISO 8601).',
    }),
    cursor: t.exposeString('cursor', {
      nullable: false,
      description: 'Pass it as `after` to resume after this work.',
    }),
  }),
});

builder.subscriptionFields((t) => ({
  worksPublished: t.field({
    type: WorkPublished,
    nullable: false,
    description:
      'Each work as it is published, on any instance, over Server-Sent Events (POST /graphql with Accept: text/event-stream). With `after` (a cursor of this subscription), every work after it comes first, in order.',
    args: {
      kind: t.arg({ type: ItemKindEnum, description: 'Only works of this kind.' }),
      author: t.arg.string({ description: 'Only works by this @handle (the @ is optional).' }),
      after: t.arg.string({
        description: 'A cursor of this subscription: first every work after it.',
      }),
    },
    subscribe: async (_root, args, ctx) =>
      deliveries<PublishedWork, WorkStreamEvent>(
        await runOperation(subscribeWorks, ctx, args),
        (event) => ({ ...event.data, cursor: event.cursor }),
      ) as unknown as AsyncIterable<PublishedWork>,
    resolve: (delivery) => delivered(delivery as Delivery<PublishedWork>),
  }),
}));
