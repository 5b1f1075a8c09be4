import { parentRemoved } from '../operations/lineage/lineage.js';
import { runOperation } from '../operations/operation.js';
import { type DeletedWork, deleteWork } from '../operations/takedowns/delete-work.js';
import { builder } from './builder.js';
import { PublishedItem } from './items.js';

/** Take-downs (src/operations/takedowns/): a member deletes their own work; lineage names a removed parent. */

const DeletedWorkRef = builder.objectRef<DeletedWork>('DeletedWork').implement({
  description: 'A work its own account took down.',
  fields: (t) => ({
    code: t.exposeString('code'),
    address: t.exposeString('address', {
      description: 'What item(code:) took: clock~<code> for a clock melody, else the code.',
    }),
    deleted: t.exposeBoolean('deleted', { description: 'Always true.' }),
  }),
});

builder.mutationFields((t) => ({
  deleteWork: t.field({
    type: DeletedWorkRef,
    description:
      'Takes down a work of the bearer’s own account: it leaves every list, search and feed, and item(code:) answers null with ITEM_REMOVED. Another account’s work is ITEM_NOT_FOUND; without a token, UNAUTHENTICATED. The same source may be published again.',
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runOperation(deleteWork, ctx, args),
  }),
}));

builder.interfaceFields(PublishedItem, (t) => ({
  remixOfRemoved: t.boolean({
    nullable: false,
    description:
      'true when the work this one was remixed from was taken down (remixOf is then null).',
    resolve: (item, _args, ctx) => parentRemoved(ctx, item),
  }),
}));
