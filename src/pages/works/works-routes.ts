import { type Request, type RequestHandler, type Response, Router } from 'express';
import { AppError } from '../../app-error.js';
import type { RequestContext, Services } from '../../context.js';
import { methodNotAllowed } from '../../http/respond.js';
import {
  expressPath,
  FEED_SIZE,
  routeTable,
  WORKS_PAGE_SIZE,
  type WorksPageName,
} from '../../http/routes/index.js';
import { chatMessagesConnection } from '../../operations/chat/index.js';
import { presentEntries } from '../../operations/chat/live/index.js';
import {
  authorHandleOf,
  findAuthor,
  type ItemConnection,
  publishedConnection,
  worksConnection,
} from '../../operations/items/index.js';
import { handleField, sortParam } from '../../operations/items/inputs.js';
import {
  findWorks,
  type SearchWorksInput,
  searchWorksInput,
} from '../../operations/items/search-works.js';
import { countWorks } from '../../operations/items/works-count.js';
import { thumbnailKeys } from '../../operations/kidlisp/thumbnail-store.js';
import { runOperation } from '../../operations/operation.js';
import { parseInput } from '../../operations/validation.js';
import { pageContext } from '../page-context.js';
import {
  ATOM_TYPE,
  atomFeed,
  type FeedInfo,
  feedUpdated,
  JSON_FEED_TYPE,
  jsonFeed,
} from './feeds.js';
import type { ListingBody, ListingCache } from './listing-cache.js';
import {
  authorPage,
  homePage,
  type ListingSort,
  type ListingView,
  pageUrl,
} from './listing-pages.js';
import { relayPager, type Work, type WorksPage } from './work-card.js';

/** Chat messages the home page shows. */
export const HOME_CHAT_LINES = 5;

const queryText = (req: Request, name: string) =>
  typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined;

/** A page's paging input from its query: forwards with `after`, backwards with `before`. */
const pagingOf = (req: Request) => {
  const before = queryText(req, 'before');
  return {
    sort: queryText(req, 'sort'),
    after: queryText(req, 'after'),
    before,
    ...(before === undefined ? { first: WORKS_PAGE_SIZE } : { last: WORKS_PAGE_SIZE }),
  };
};

/** The works with the hashes of their stored thumbnails (one read for the page). */
async function withThumbnails(ctx: RequestContext, works: Work[]): Promise<Work[]> {
  const keys = await thumbnailKeys(
    ctx,
    works
      .filter(({ item }) => item.kind === 'kidlisp' || item.kind === 'piece')
      .map(({ item }) => item.code),
  );
  return works.map((work) => ({ ...work, thumbnail: keys.get(work.item.code) }));
}

/** Each work with its author's handle (one batched read for the page) and stored thumbnail. */
async function withAuthors(ctx: RequestContext, page: ItemConnection): Promise<WorksPage> {
  const works = await withThumbnails(
    ctx,
    await Promise.all(
      page.edges.map(async ({ node }) => ({ item: node, author: await authorHandleOf(ctx, node) })),
    ),
  );
  const edges = page.edges.map(({ cursor }, index) => ({ cursor, node: works[index] as Work }));
  return { edges, pageInfo: page.pageInfo };
}

/**
 * What a listing at `path` shows: with a `search` term in its query, a page of the works search
 * (searchWorks' input and read; `handle` narrows it to an author), paged by its `cursor`; a term
 * too long is said on the page (`problem`, answered 400). Without a term, the page `browse` reads.
 */
async function listingView(
  ctx: RequestContext,
  req: Request,
  path: string,
  browse: () => Promise<ListingView>,
  handle?: string,
): Promise<ListingView & { status?: number }> {
  const term = queryText(req, 'search');
  if (!term?.trim()) return browse();
  const sort = queryText(req, 'sort');
  const raw = {
    search: term,
    sort,
    cursor: queryText(req, 'cursor'),
    handle,
    limit: WORKS_PAGE_SIZE,
  };
  let input: SearchWorksInput;
  try {
    input = parseInput(searchWorksInput, raw);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'SEARCH_TOO_LONG')) throw error;
    const none = { previous: null, next: null };
    return { works: [], pager: none, term, problem: error.message, status: error.status };
  }
  const found = await findWorks(ctx, input);
  const works = await withThumbnails(
    ctx,
    await Promise.all(
      found.works.map(async ({ item, excerpt }) => ({
        item,
        excerpt,
        author: await authorHandleOf(ctx, item),
      })),
    ),
  );
  const url = (cursor: string | null) =>
    cursor === null
      ? null
      : `${path}?${new URLSearchParams({ search: input.search ?? '', ...(sort ? { sort } : {}), cursor })}`;
  return {
    works,
    pager: { previous: url(found.previousCursor), next: url(found.nextCursor) },
    term: input.search,
  };
}

/** A Relay page of works as a listing shows it, its pager's links kept at `path` sorted `sort`. */
const browseView = (page: WorksPage, path: string, sort: ListingSort): ListingView => ({
  works: page.edges.map((edge) => edge.node),
  pager: relayPager(page, pageUrl(path, sort)),
});

/** The author a `/@handle` path names, or AUTHOR_NOT_FOUND (a handle no account could have too). */
async function authorOf(ctx: RequestContext, req: Request) {
  const param = String(req.params.handle ?? '');
  const author = handleField('handle').safeParse(param).success
    ? await runOperation(findAuthor, ctx, { handle: param })
    : null;
  if (!author) throw new AppError('AUTHOR_NOT_FOUND', `No author has the handle @${param}.`);
  return author;
}

/**
 * The home page, author pages and feeds (the route table's `page` rows). Each answer is
 * rendered once per works version and listing, kept a few seconds (listing-cache.ts), sent with
 * a strong ETag (and Last-Modified for feeds), so a conditional request answers 304.
 */
export function worksRoutes(services: Services, listings: ListingCache): Router {
  const router = Router();
  const { publicUrl } = services.config;

  async function send(
    req: Request,
    res: Response,
    type: string,
    render: (ctx: RequestContext) => Promise<ListingBody>,
  ): Promise<void> {
    const listing = await listings.read(
      req.path,
      (name) => queryText(req, name),
      async () => render(await pageContext(services, req)),
    );
    listings.send(res, type, listing);
  }

  const recentWorks = async (ctx: RequestContext, accounts?: string[]) => {
    const input = { sort: 'recent', first: FEED_SIZE };
    const page = accounts
      ? await runOperation(worksConnection, ctx, { ...input, accounts })
      : await runOperation(publishedConnection, ctx, input);
    return (await withAuthors(ctx, page)).edges.map((edge) => edge.node);
  };

  const feed = (format: 'atom' | 'json', author: boolean) => (req: Request, res: Response) =>
    send(req, res, format === 'atom' ? ATOM_TYPE : JSON_FEED_TYPE, async (ctx) => {
      const found = author ? await authorOf(ctx, req) : null;
      const info: FeedInfo = {
        title: found ? `Works by ${found.handle}` : 'publish-gateway: recent works',
        path: found ? `/${found.handle}/feed` : '/feed',
        pagePath: found ? `/${found.handle}` : '/',
        publicUrl,
      };
      const works = await recentWorks(ctx, found?.accounts);
      return {
        body: format === 'atom' ? atomFeed(info, works) : jsonFeed(info, works),
        lastModified: feedUpdated(works),
      };
    });

  const handlers: Record<WorksPageName, (req: Request, res: Response) => Promise<void>> = {
    home: (req, res) =>
      send(req, res, 'html', async (ctx) => {
        const [view, chat] = await Promise.all([
          listingView(ctx, req, '/', async () => {
            const page = await runOperation(publishedConnection, ctx, pagingOf(req));
            // The operation accepted the sort already.
            const sort: ListingSort = sortParam.parse(queryText(req, 'sort'));
            return browseView(await withAuthors(ctx, page), '/', sort);
          }),
          runOperation(chatMessagesConnection, ctx, { last: HOME_CHAT_LINES }),
        ]);
        const entries = await presentEntries(
          services.db,
          chat.edges.map((edge) => edge.node),
        );
        // A search shows no sort tabs; the browse page's operation accepted the sort already.
        const sort: ListingSort = view.term ? 'recent' : sortParam.parse(queryText(req, 'sort'));
        return { body: homePage(view, sort, entries), status: view.status };
      }),
    author: (req, res) =>
      send(req, res, 'html', async (ctx) => {
        const author = await authorOf(ctx, req);
        const { sort: _sort, ...paging } = pagingOf(req);
        const path = `/${author.handle}`;
        const [view, count] = await Promise.all([
          listingView(
            ctx,
            req,
            path,
            async () => {
              const input = { ...paging, accounts: author.accounts };
              const page = await runOperation(worksConnection, ctx, input);
              return browseView(await withAuthors(ctx, page), path, 'recent');
            },
            author.handle,
          ),
          countWorks(ctx, author.accounts),
        ]);
        return { body: authorPage(author.handle, count, view), status: view.status };
      }),
    'feed.atom': feed('atom', false),
    'feed.json': feed('json', false),
    'author-feed.atom': feed('atom', true),
    'author-feed.json': feed('json', true),
  };

  for (const route of routeTable(publicUrl)) {
    if (route.serve.face !== 'page') continue;
    const handler = handlers[route.serve.page];
    const path = expressPath(route.path);
    const answer: RequestHandler = (req, res, next) => {
      handler(req, res).catch(next);
    };
    router.get(path, answer);
    router.all(path, methodNotAllowed([route.method]));
  }
  return router;
}
