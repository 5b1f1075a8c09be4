import { PAGE_SIZE_DEFAULT } from '../operations/items/index.js';
import {
  LINEAGE_MAX,
  lineageOf,
  parentOf,
  remixesConnection,
} from '../operations/lineage/lineage.js';
import { runOperation } from '../operations/operation.js';
import { builder } from './builder.js';
import { listCost, pageCost } from './cost.js';
import { ItemConnection, ItemKindEnum, PAGING, PublishedItem, SortEnum } from './items.js';

/** Remix lineage on every published item (docs/contract.md, Remix lineage). */
builder.interfaceFields(PublishedItem, (t) => ({
  remixOf: t.field({
    type: PublishedItem,
    nullable: true,
    description:
      'The work this one was remixed from (publish with remixOf); null for an original. Reading it counts no hit.',
    resolve: (item, _args, ctx) => parentOf(ctx, item),
  }),
  lineage: t.field({
    type: [PublishedItem],
    nullable: { list: false, items: false },
    description: `Its ancestors, the parent first, up to the root (an original): empty for an original. One database lookup per level; at most ${LINEAGE_MAX} (a deeper chain continues from the last one's lineage).`,
    complexity: listCost(LINEAGE_MAX),
    resolve: (item, _args, ctx) => lineageOf(ctx, item),
  }),
  remixes: t.connection(
    {
      type: PublishedItem,
      description: `The works published as remixes of this one, newest first by default. ${PAGING}`,
      complexity: pageCost(PAGE_SIZE_DEFAULT),
      args: {
        kind: t.arg({ type: ItemKindEnum, description: 'Only remixes of this kind.' }),
        sort: t.arg({ type: SortEnum, defaultValue: 'recent' }),
      },
      resolve: (item, args, ctx) => runOperation(remixesConnection, ctx, { ...args, parent: item }),
    },
    ItemConnection,
  ),
}));
