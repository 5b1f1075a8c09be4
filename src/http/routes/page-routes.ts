import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import {
  handleField,
  listCursor,
  publishedCursor,
  searchSortParam,
  WORKS_SEARCH_MAX,
  worksSearchField,
} from '../../operations/items/inputs.js';
import { optional } from '../../operations/validation.js';
import type { RouteSpec, WorksPageName } from './route-spec.js';

/** Works on a page of `/` and `/@handle`. */
export const WORKS_PAGE_SIZE = 24;
/** Works a feed carries: the newest, everyone's or one author's. */
export const FEED_SIZE = 50;

const cursors = {
  after: optional(publishedCursor('after')),
  before: optional(publishedCursor('before')),
};
const cursorDescriptions = {
  after: 'endCursor of the page before: the next page (older, or less popular).',
  before: 'startCursor of the page after: the previous page.',
};
/** The search box's parameters (the works search, src/operations/items/search-works.ts). */
const searchQuery = { search: worksSearchField, cursor: optional(listCursor('cursor')) };
const searchDescriptions = {
  search: `The search box: shows the works holding this text (a case-insensitive literal substring, at most ${WORKS_SEARCH_MAX} characters, as GET /api/items?search=) with an excerpt each, ${WORKS_PAGE_SIZE} a page; a longer term answers 400 with the page saying so. Blank: no search.`,
  cursor: 'With search: the cursor of the results page before or after (the pager\u2019s links).',
};
const handleQuery = { handle: handleField('handle') };
const handleDescription = { handle: 'The author, as in /@handle.' };

const jsonFeedSchema = z.looseObject({
  version: z.literal('https://jsonfeed.org/version/1.1'),
  title: z.string(),
  home_page_url: z.string(),
  feed_url: z.string(),
  items: z.array(
    z.looseObject({
      id: z.string(),
      url: z.string(),
      title: z.string(),
      content_text: z.string(),
      date_published: z.string(),
      authors: z.array(z.looseObject({ name: z.string() })),
      tags: z.array(z.string()),
      image: z.string().optional(),
    }),
  ),
});

const PAGE_ERRORS: ErrorCode[] = ['METHOD_NOT_ALLOWED', 'DB_UNAVAILABLE', 'INTERNAL'];
const PAGING_ERRORS: ErrorCode[] = ['CURSOR_INVALID', 'LIMIT_INVALID'];
/** A term too long is said on the page (400); the others are the error page. */
const SEARCH_ERRORS: ErrorCode[] = ['SEARCH_TOO_LONG'];

const page = (page: WorksPageName) => ({ face: 'page', page }) as const;

const feedNote =
  'ETag and Last-Modified (the newest work\u2019s time): a conditional request (If-None-Match or If-Modified-Since) answers 304.';

function feedRoutes(author: boolean): RouteSpec[] {
  const base = author ? '/@{handle}/feed' : '/feed';
  const whose = author ? 'the author\u2019s' : 'the';
  const common = {
    method: 'GET' as const,
    authentication: 'none' as const,
    ...(author
      ? { query: { schema: z.object(handleQuery), descriptions: handleDescription } }
      : {}),
    errors: [...(author ? (['AUTHOR_NOT_FOUND'] as ErrorCode[]) : []), ...PAGE_ERRORS],
    notes: [
      feedNote,
      'Each entry: its page, kind, author, date and, for works with a picture, the thumbnail.',
    ],
    since: '1.1.0' as const,
  };
  const examplePath = author ? '/@jeffrey/feed' : '/feed';
  return [
    {
      ...common,
      serve: page(author ? 'author-feed.atom' : 'feed.atom'),
      name: author ? 'Author feed (Atom)' : 'Works feed (Atom)',
      operationId: author ? 'authorFeedAtom' : 'feedAtom',
      path: `${base}.atom`,
      description: `An Atom 1.0 feed of ${whose} ${FEED_SIZE} newest works, newest first.`,
      response: {
        statuses: [200],
        description: 'Atom XML (application/atom+xml).',
        schema: z.string(),
        contentTypes: ['application/atom+xml'],
      },
      examples: [
        {
          title: 'Follow the newest works',
          request: { method: 'GET', path: `${examplePath}.atom` },
          response: {
            status: 200,
            body: '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">...</feed>',
          },
        },
      ],
    },
    {
      ...common,
      serve: page(author ? 'author-feed.json' : 'feed.json'),
      name: author ? 'Author feed (JSON Feed)' : 'Works feed (JSON Feed)',
      operationId: author ? 'authorFeedJson' : 'feedJson',
      path: `${base}.json`,
      description: `A JSON Feed 1.1 of ${whose} ${FEED_SIZE} newest works, newest first; _work gives each item\u2019s kind and code.`,
      response: {
        statuses: [200],
        description: 'JSON Feed 1.1 (application/feed+json).',
        schema: jsonFeedSchema,
        contentTypes: ['application/feed+json'],
      },
      examples: [
        {
          title: 'Follow the newest works as JSON',
          request: { method: 'GET', path: `${examplePath}.json` },
          response: {
            status: 200,
            body: {
              version: 'https://jsonfeed.org/version/1.1',
              title: 'publish-gateway: recent works',
              home_page_url: 'https://example.test/',
              feed_url: 'https://example.test/feed.json',
              items: [],
            },
          },
        },
      ],
    },
  ];
}

/** The front door: the home page, author pages and their feeds (HTML and feeds, not JSON APIs). */
export function pageRoutes(): RouteSpec[] {
  return [
    {
      serve: page('home'),
      name: 'Home page',
      operationId: 'homePage',
      method: 'GET',
      path: '/',
      description: `Recent (or popular) works of every kind, ${WORKS_PAGE_SIZE} a page with thumbnails, linking to each work\u2019s page; the latest chat messages. HTML that works without scripts.`,
      authentication: 'none',
      query: {
        schema: z.object({ sort: searchSortParam, ...cursors, ...searchQuery }),
        descriptions: {
          sort: 'recent (newest first, the default) or hits (most popular first); with search also relevance (its default).',
          ...cursorDescriptions,
          ...searchDescriptions,
        },
      },
      response: {
        statuses: [200, 400],
        description:
          'An HTML page; it links the feeds with <link rel="alternate">. 400: the same page saying the search term is too long.',
        schema: z.string(),
        contentTypes: ['text/html'],
      },
      errors: ['SORT_INVALID', ...SEARCH_ERRORS, ...PAGING_ERRORS, ...PAGE_ERRORS],
      examples: [
        {
          title: 'The most popular works',
          request: { method: 'GET', path: '/', query: { sort: 'hits' } },
          response: { status: 200, body: '<!doctype html>...' },
        },
        {
          title: 'The search box: works holding "wipe"',
          request: { method: 'GET', path: '/', query: { search: 'wipe' } },
          response: { status: 200, body: '<!doctype html>...' },
        },
      ],
      since: '1.1.0',
    },
    {
      serve: page('author'),
      name: 'Author page',
      operationId: 'authorPage',
      method: 'GET',
      path: '/@{handle}',
      description: `An author\u2019s works, newest first, ${WORKS_PAGE_SIZE} a page, with how many there are. An unknown handle is a 404 page.`,
      authentication: 'none',
      query: {
        schema: z.object({ ...handleQuery, ...cursors, ...searchQuery }),
        descriptions: {
          ...handleDescription,
          ...cursorDescriptions,
          ...searchDescriptions,
          search: `${searchDescriptions.search} Only this author\u2019s works.`,
        },
      },
      response: {
        statuses: [200, 400],
        description:
          'An HTML page; it links the author\u2019s feeds with <link rel="alternate">. 400: the same page saying the search term is too long.',
        schema: z.string(),
        contentTypes: ['text/html'],
      },
      errors: [
        'AUTHOR_NOT_FOUND',
        'SORT_INVALID',
        ...SEARCH_ERRORS,
        ...PAGING_ERRORS,
        ...PAGE_ERRORS,
      ],
      examples: [
        {
          title: 'An author\u2019s works',
          request: { method: 'GET', path: '/@jeffrey' },
          response: { status: 200, body: '<!doctype html>...' },
        },
      ],
      since: '1.1.0',
    },
    ...feedRoutes(false),
    ...feedRoutes(true),
  ];
}
