import { ERROR_STATUS_HEADERS, errorStatus } from '../app-error.js';
import { protectedResource } from '../auth/protected-resource.js';
import type { Config } from '../config.js';
import { formatCount } from '../domain/format.js';
import { MAX_TAPE_SECONDS } from '../domain/media.js';
import { GRAPHQL_BATCH_MAX } from '../http/body-limit.js';
import { routeTable } from '../http/routes/index.js';
import { CODES_MAX, LIST_LIMIT_MAX, WORKS_SEARCH_MAX } from '../operations/items/index.js';
import { CLOCK_MAX, KIDLISP_MAX, PIECE_MAX } from '../operations/publish/inputs.js';
import { SERVICE_VERSION } from '../version.js';
import { endpointDoc } from './endpoint-doc.js';
import { graphqlDocs } from './graphql-docs.js';
import { mcpDocs } from './mcp-docs.js';

export const API_UPDATED = '2026-08-03';
export const API_TITLE = 'Publishing and Chat-Reading API';

export type DocsConfig = Pick<Config, 'publicUrl' | 'graphiql'> & { auth?: Config['auth'] };

/** Each limit with its number, so a test can hold it against the schema that enforces it. */
function limits() {
  return [
    { appliesTo: 'source of POST /api/store-kidlisp', value: KIDLISP_MAX, unit: 'characters' },
    { appliesTo: 'source of POST /api/store-piece', value: PIECE_MAX, unit: 'characters' },
    { appliesTo: 'source of POST /api/store-clock', value: CLOCK_MAX, unit: 'characters' },
    {
      appliesTo: 'metadata.totalDuration of POST /api/track-media (tapes)',
      value: MAX_TAPE_SECONDS,
      unit: 'seconds',
    },
    {
      appliesTo: 'codes of GET /api/store-kidlisp?codes= and GraphQL items(codes:)',
      value: CODES_MAX,
      unit: 'codes',
    },
    {
      appliesTo:
        'limit of GET /api/items, of GET /api/store-kidlisp and /api/store-clock with recent=1, and of the MCP tool search_works',
      value: LIST_LIMIT_MAX,
      unit: 'items',
    },
    {
      appliesTo:
        'search of GET /api/items, GraphQL published(search:) and query of the MCP tool search_works',
      value: WORKS_SEARCH_MAX,
      unit: 'characters',
    },
  ].map((limit) => ({ ...limit, limit: `${formatCount(limit.value)} ${limit.unit}` }));
}

function errorsSection() {
  return {
    description:
      'Every error is JSON of one shape on every route; some add details (maxDuration, line, column, allow).',
    shape: { error: 'one human sentence', message: 'the same sentence', code: 'MACHINE_CODE' },
    codes: Object.entries(errorStatus).map(([code, status]) => ({ code, status })),
    headers: Object.fromEntries(
      Object.entries(ERROR_STATUS_HEADERS).map(([status, header]) => [
        status,
        'value' in header ? `${header.name}: ${header.value} (${header.meaning})` : header.name,
      ]),
    ),
  };
}

function buildApiInfo(config: DocsConfig) {
  const baseURL = config.publicUrl;
  return {
    title: API_TITLE,
    version: SERVICE_VERSION,
    updated: API_UPDATED,
    description:
      'Publish KidLisp programs, clock melodies, JavaScript pieces and uploaded media, each under a short code viewable at ' +
      `${baseURL}/<code> (melodies at ${baseURL}/clock~<code>), and read the public chat channels. The same operations ` +
      'are served as REST routes, as GraphQL and as assistant (MCP) tools.',
    baseURL,
    documentation: {
      html: `${baseURL}/api`,
      json: `${baseURL}/api-docs.json`,
      openapi: `${baseURL}/api/openapi.json`,
    },
    graphql: {
      endpoint: `${baseURL}/graphql`,
      graphiql: config.graphiql,
      description: `POST GraphQL operations here (a JSON array batches up to ${GRAPHQL_BATCH_MAX}); queries also over GET; Apollo automatic persisted queries are supported.${config.graphiql ? ' Open the same URL in a browser for GraphiQL.' : ''}`,
      subscriptions:
        'chatMessageAdded(instance, from, search, after) and chatMessageRemoved(instance) run over Server-Sent Events ' +
        '(the graphql-sse protocol): POST the subscription here with Accept: text/event-stream.',
      ...graphqlDocs(),
    },
    authentication: {
      scheme: 'bearer',
      header: 'Authorization: Bearer <ACCESS_TOKEN>',
      description:
        'Publishing works anonymously. A bearer token associates new work with an account; a token that is present but ' +
        'invalid, expired or revoked answers 401 rather than silently publishing anonymously. Reading needs no token.',
      keys:
        `A member makes keys for their assistants at ${baseURL}/settings/keys or with POST /api/keys (scopes publish and keys; ` +
        'a key without publish answers 403 INSUFFICIENT_SCOPE when it publishes). Give one to publish-mcp as SERVICE_TOKEN.',
      ...oauthDocs(config),
    },
    mcp: mcpDocs(baseURL),
    endpoints: routeTable(baseURL).map((spec) => endpointDoc(spec, baseURL)),
    errors: errorsSection(),
    limits: limits(),
    notes: [
      'Publishing is anonymous unless a bearer token is sent.',
      'store-kidlisp, store-clock and store-piece take source text; track-media registers a file already uploaded to storage.',
      `Limits: KidLisp ${formatCount(KIDLISP_MAX)}, pieces ${formatCount(PIECE_MAX)}, melodies ${formatCount(CLOCK_MAX)} characters.`,
      `Tapes are at most ${MAX_TAPE_SECONDS} seconds long.`,
      'Identical (trimmed) source returns the same code with cached: true, whoever published it first.',
      'A piece must export boot, paint, sim or act, or have a default export.',
      'Read any item with GET /api/items/<code> (clock~<code> for a melody); hits count distinct clients that published or read it, each once, and every ranking sorts by them.',
      'Search works by text with GET /api/items?search= (GraphQL published(search:), the MCP tool search_works): a case-insensitive literal substring of source, melody, piece name or media slug.',
      'Every publish takes an optional remixOf, the code of the work it was remixed from (it must exist: 404 ITEM_NOT_FOUND otherwise); GET /api/items/<code> answers remixOf and GET /api/items/<code>/remixes pages its remixes.',
      'A work taken down (removed by an operator, or deleted by its author with DELETE /api/items/<code> or GraphQL deleteWork) answers 410 ITEM_REMOVED on every read and leaves every list; publishing the source of a work an operator removed is refused with 410 ITEM_REMOVED.',
      `Live chat: GET /api/chat-messages/stream (Server-Sent Events) and the GraphQL subscriptions; ${baseURL}/chat shows it in a browser.`,
    ],
    relatedResources: [
      { name: 'OpenAPI 3.1', url: `${baseURL}/api/openapi.json` },
      { name: 'GraphQL', url: `${baseURL}/graphql` },
      { name: 'Live chat page', url: `${baseURL}/chat` },
    ],
  };
}

export type ApiInfo = ReturnType<typeof buildApiInfo>;

const cache = new Map<string, ApiInfo>();

/**
 * The documentation object behind GET /api and the MCP tool get_api_info. It depends on
 * configuration only, so it is built once per base URL.
 */
export function apiInfo(config: DocsConfig): ApiInfo {
  const key = `${config.publicUrl} ${config.graphiql} ${config.auth?.issuer ?? ''}`;
  let info = cache.get(key);
  if (!info) {
    info = buildApiInfo(config);
    cache.set(key, info);
  }
  return info;
}

/** With AUTH_ISSUER: where MCP clients find the authorization server of /mcp (RFC 9728). */
function oauthDocs({ publicUrl, auth }: DocsConfig) {
  const resource = auth && protectedResource({ publicUrl, auth });
  return resource
    ? {
        oauth: {
          resource: resource.resource,
          metadata: resource.metadataUrl,
          authorizationServers: [auth?.issuer],
          description:
            '/mcp is an OAuth 2.1 protected resource: a 401 names the metadata, which names the issuer; a JWT for /mcp must have it (or AUTH_AUDIENCE) as its audience.',
        },
      }
    : {};
}
