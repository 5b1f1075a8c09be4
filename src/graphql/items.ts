import { encodeGlobalID } from '@pothos/plugin-relay';
import { parseMelody } from '../domain/melody/index.js';
import {
  type Author,
  authorHandleOf,
  CODES_MAX,
  findAuthor,
  findItem,
  findItems,
  findViewer,
  type Item,
  type ItemKind,
  LIST_LIMIT_MAX,
  PAGE_SIZE_DEFAULT,
  publishedConnection,
  type ViewerAccount,
  WORKS_SEARCH_MAX,
  worksConnection,
} from '../operations/items/index.js';
import { runOperation } from '../operations/operation.js';
import { builder } from './builder.js';
import { listCost, pageCost } from './cost.js';

export const ItemKindEnum = builder.enumType('ItemKind', {
  description: 'What a published item is.',
  values: {
    KIDLISP: { value: 'kidlisp', description: 'A KidLisp program.' },
    CLOCK: { value: 'clock', description: 'A clock melody (addressed clock~<code>).' },
    PIECE: { value: 'piece', description: 'A JavaScript piece (or a .lisp/.lua file).' },
    PAINTING: { value: 'painting', description: 'A PNG painting.' },
    TAPE: { value: 'tape', description: 'A recorded tape (zip or mp4).' },
  } as const,
});

export const SortEnum = builder.enumType('PublishedSort', {
  values: {
    RECENT: { value: 'recent', description: 'Newest first.' },
    HITS: {
      value: 'hits',
      description:
        'Most hits (distinct clients that published or read it) first; ties newest first.',
    },
    RELEVANCE: {
      value: 'relevance',
      description:
        'Searches only (published(search:), its default there): works whose name or media slug holds the term first, then those where only the source does; within each, most hits first, then newest.',
    },
  } as const,
});

export const PAGING =
  `Page with first/after (down the list) or last/before (up it), at most ${LIST_LIMIT_MAX} per page, ${PAGE_SIZE_DEFAULT} by default; edges are in list order. ` +
  'RECENT pages on (when, id): while items are published, paging never repeats or skips an item (new ones appear above the first page). ' +
  'HITS pages on (hits, when, id) from the cursor: items whose hits do not change while you page are each seen once, in order; ' +
  'an item whose hits change meanwhile moves in the list and may be seen twice or not at all. Cursors of one sort are refused by the other.';

/** An author as GraphQL shows it: `@handle`; its accounts are looked up only if works are asked. */
type AuthorShape = Pick<Author, 'handle'> & { accounts?: string[] };

const withoutAt = (handle: string) => handle.replace(/^@/, '');

export const AuthorRef = builder.objectRef<AuthorShape>('Author');
const ViewerRef = builder.objectRef<ViewerAccount>('Viewer');

export const PublishedItem = builder.interfaceRef<Item>('PublishedItem').implement({
  description:
    'A published work of any kind. A clock melody is addressed clock~<code>; every other kind by its bare code.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (item) => typeNames[item.kind],
  fields: (t) => ({
    id: t.id({
      nullable: false,
      description:
        'Its global id (Relay Global Object Identification): opaque, unique across every type; Query.node takes it back.',
      resolve: (item) => encodeGlobalID(typeNames[item.kind], item.code),
    }),
    kind: t.field({ type: ItemKindEnum, nullable: false, resolve: (item) => item.kind }),
    code: t.exposeString('code', { nullable: false, description: 'The short code.' }),
    address: t.exposeString('address', {
      nullable: false,
      description: 'What item(code:) takes: clock~<code> for a clock melody, else the code.',
    }),
    url: t.exposeString('url', { nullable: false, description: 'Where it is viewed or played.' }),
    when: t.expose('when', { type: 'DateTime', nullable: false }),
    hits: t.exposeInt('hits', {
      nullable: false,
      description:
        'Distinct clients (accounts, else addresses) that published it or read it through the API; one client counts once.',
    }),
    author: t.field({
      type: AuthorRef,
      nullable: true,
      description:
        'Its author; null when it was published anonymously or the account has no handle.',
      resolve: async (item, _args, ctx) => {
        const handle = await authorHandleOf(ctx, item);
        return handle ? { handle } : null;
      },
    }),
  }),
});

const kindType = (name: string, kind: ItemKind, description: string) =>
  builder.objectRef<Item>(name).implement({
    description,
    interfaces: [builder.nodeInterfaceRef(), PublishedItem],
    isTypeOf: (value) => (value as Item).kind === kind,
    fields: () => ({}),
  });

const MelodySummary = builder.objectRef<ReturnType<typeof parseMelody>>('MelodySummary').implement({
  description: 'What the melody parser makes of a melody.',
  fields: (t) => ({
    valid: t.exposeBoolean('valid', { nullable: false }),
    errors: t.exposeStringList('errors', { nullable: false }),
    warnings: t.exposeStringList('warnings', { nullable: false }),
    tracks: t.int({ nullable: false, resolve: (m) => m.tracks.length, description: 'Tracks.' }),
    sections: t.int({
      nullable: false,
      resolve: (m) => m.sections.length,
      description: 'Sections played one after another.',
    }),
    notes: t.int({
      nullable: false,
      description: 'Sounding notes across all tracks (rests excluded).',
      resolve: (m) =>
        m.tracks.reduce(
          (sum, track) => sum + track.events.filter((e) => e.kind === 'note').length,
          0,
        ),
    }),
  }),
});

const KidlispItem = kindType('KidlispItem', 'kidlisp', 'A published KidLisp program.');
const ClockItem = kindType('ClockItem', 'clock', 'A published clock melody.');
const PieceItem = kindType(
  'PieceItem',
  'piece',
  'A published JavaScript piece (or .lisp/.lua file).',
);
const PaintingItem = kindType('PaintingItem', 'painting', 'A registered painting.');
const TapeItem = kindType('TapeItem', 'tape', 'A registered tape.');

export const typeNames: Record<ItemKind, string> = {
  kidlisp: 'KidlispItem',
  clock: 'ClockItem',
  piece: 'PieceItem',
  painting: 'PaintingItem',
  tape: 'TapeItem',
};

const MEDIA_URL = 'The stored file, as this service serves it ({base_url}/<code>.<ext>).';
const mediaUrlOf = (item: Item) => item.mediaUrl ?? '';

/** `source` is nullable on every kind that has one, so one query can ask it of all of them. */
builder.objectFields(KidlispItem, (t) => ({
  source: t.string({ nullable: true, description: 'The program.', resolve: (item) => item.source }),
}));
builder.objectFields(ClockItem, (t) => ({
  source: t.string({ nullable: true, description: 'The melody.', resolve: (item) => item.source }),
  melody: t.field({
    type: MelodySummary,
    nullable: false,
    resolve: (item) => parseMelody(item.source ?? ''),
  }),
}));
builder.objectFields(PieceItem, (t) => ({
  source: t.string({
    nullable: true,
    description:
      'The module source when the service keeps it (store-piece); null for registered files.',
    resolve: (item) => item.source,
  }),
  name: t.exposeString('name', { nullable: true }),
  ext: t.string({
    nullable: false,
    description: 'mjs, lisp or lua.',
    resolve: (item) => item.ext ?? 'mjs',
  }),
  mediaUrl: t.string({ nullable: false, description: MEDIA_URL, resolve: mediaUrlOf }),
}));
builder.objectFields(PaintingItem, (t) => ({
  ext: t.string({ nullable: false, description: 'png.', resolve: (item) => item.ext ?? 'png' }),
  mediaUrl: t.string({ nullable: false, description: MEDIA_URL, resolve: mediaUrlOf }),
}));
builder.objectFields(TapeItem, (t) => ({
  ext: t.string({ nullable: false, description: 'zip or mp4.', resolve: (item) => item.ext ?? '' }),
  duration: t.float({
    nullable: true,
    description: 'Duration in seconds, when known.',
    resolve: (item) => item.duration,
  }),
  mediaUrl: t.string({ nullable: false, description: MEDIA_URL, resolve: mediaUrlOf }),
}));

/** The connection every list of items uses: `published`, an author's and the viewer's works. */
export const ItemConnection = builder.connectionObject(
  {
    type: PublishedItem,
    name: 'PublishedItemConnection',
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  {
    name: 'PublishedItemEdge',
    fields: (t) => ({
      excerpt: t.string({
        nullable: true,
        description:
          'In a search (published(search:)): about 120 characters of the name, slug or source around the first match, … where cut. Null otherwise.',
        resolve: (edge) => (edge as { excerpt?: string | null }).excerpt ?? null,
      }),
    }),
  },
);

builder.objectType(AuthorRef, {
  description: 'Someone who publishes, by handle.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.id({
      nullable: false,
      description: 'Its global id: opaque, unique across every type; Query.node takes it back.',
      resolve: (author) => encodeGlobalID('Author', withoutAt(author.handle)),
    }),
    handle: t.exposeString('handle', { nullable: false, description: '@handle.' }),
    works: t.connection(
      {
        type: PublishedItem,
        description: `This author's works. ${PAGING}`,
        complexity: pageCost(PAGE_SIZE_DEFAULT),
        args: {
          kind: t.arg({ type: ItemKindEnum, description: 'Only this kind.' }),
          sort: t.arg({ type: SortEnum, defaultValue: 'recent' }),
        },
        resolve: async (author, args, ctx) =>
          runOperation(worksConnection, ctx, {
            ...args,
            accounts:
              author.accounts ??
              (await runOperation(findAuthor, ctx, { handle: withoutAt(author.handle) }))
                ?.accounts ??
              [],
          }),
      },
      ItemConnection,
    ),
  }),
});

builder.objectType(ViewerRef, {
  description: 'The account of the bearer token.',
  fields: (t) => ({
    account: t.exposeString('account', { nullable: false, description: 'The account id.' }),
    handle: t.exposeString('handle', {
      nullable: true,
      description: '@handle, if the account has one.',
    }),
    works: t.connection(
      {
        type: PublishedItem,
        description: `Works published with this account. ${PAGING}`,
        complexity: pageCost(PAGE_SIZE_DEFAULT),
        args: {
          kind: t.arg({ type: ItemKindEnum, description: 'Only this kind.' }),
          sort: t.arg({ type: SortEnum, defaultValue: 'recent' }),
        },
        resolve: (viewer, args, ctx) =>
          runOperation(worksConnection, ctx, { ...args, accounts: [viewer.account] }),
      },
      ItemConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  item: t.field({
    type: PublishedItem,
    nullable: true,
    description:
      'A published item by its code (clock~<code> for a clock melody); null when nothing has it, and null with the error code ITEM_REMOVED when it was taken down. Reading counts a hit (once per client).',
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runOperation(findItem, ctx, args),
  }),
  items: t.field({
    type: [PublishedItem],
    nullable: { list: false, items: true },
    description: `Up to ${CODES_MAX} items, in the order asked, null for a code nothing has; one database query per collection for the whole list. Each found item counts a hit (once per client).`,
    args: { codes: t.arg.stringList({ required: true }) },
    complexity: (args) => listCost(args.codes.length),
    resolve: (_root, args, ctx) => runOperation(findItems, ctx, args),
  }),
  published: t.connection(
    {
      type: PublishedItem,
      description: `Published items of every kind, or one kind, or one author's, or those holding a search term. ${PAGING}`,
      complexity: pageCost(PAGE_SIZE_DEFAULT),
      args: {
        kind: t.arg({ type: ItemKindEnum, description: 'Only this kind (all kinds by default).' }),
        sort: t.arg({
          type: SortEnum,
          description:
            'RECENT by default; RELEVANCE by default with a search term (and only then).',
        }),
        author: t.arg.string({ description: 'Only works of this @handle (the @ is optional).' }),
        search: t.arg.string({
          description: `Only works holding this text, a case-insensitive literal substring of their KidLisp or piece source, melody, piece name or media slug (at most ${WORKS_SEARCH_MAX} characters, else SEARCH_TOO_LONG); blank is no search. Each edge carries an excerpt around the first match.`,
        }),
      },
      resolve: (_root, args, ctx) => runOperation(publishedConnection, ctx, args),
    },
    ItemConnection,
  ),
  author: t.field({
    type: AuthorRef,
    nullable: true,
    description: 'An author by @handle (the @ is optional); null when no account has the handle.',
    args: { handle: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runOperation(findAuthor, ctx, args),
  }),
  viewer: t.field({
    type: ViewerRef,
    nullable: true,
    description: 'The account of the bearer token; null for an anonymous request.',
    resolve: (_root, _args, ctx) => runOperation(findViewer, ctx, {}),
  }),
}));
