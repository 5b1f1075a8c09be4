import { z } from 'zod';
import type { ErrorCode } from '../../app-error.js';
import type { Operation } from '../../operations/operation.js';

/** An example request as the docs print it (curl, fetch, Python). */
export interface ExampleRequest {
  method: RouteMethod;
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Adds `Authorization: Bearer $TOKEN`. */
  withToken?: boolean;
  /** The answer is an event stream: the snippets read it as it comes. */
  stream?: boolean;
}

export type RouteMethod = 'GET' | 'POST' | 'DELETE';

/** What each field of an input or output means. */
export type FieldDescriptions = Record<string, string>;

export interface ExampleSpec {
  title: string;
  description?: string;
  request: ExampleRequest;
  response: { status: number; body: unknown };
}

/** Old names a schema folds into its own field before validating (`melody` into `source`). */
export type LegacyFields = Record<string, { sameAs: string; description: string }>;

// biome-ignore lint/suspicious/noExplicitAny: a table holds operations of every input and result type
export type AnyOperation = Operation<z.ZodType, any>;

/**
 * Who answers a route. `rest`: the REST face runs the operation on the JSON body or the query
 * (and the path's `{parameters}`) and answers `created` (201, or 200 when cached), `ok` (200),
 * `read` (200, never cached: a read counts a hit), `cached-page` (200 with the chat page's
 * caching headers) or `event-stream` (200 `text/event-stream`, one event per item the
 * operation's feed yields, `Last-Event-ID` as its `after`). `docs`: the docs face serves a
 * document. `page`: the pages router (src/pages/works/) serves a page or feed of works.
 */
export type RouteServe =
  | {
      face: 'rest';
      operation: AnyOperation;
      from: 'body' | 'query';
      answer: RestAnswer;
    }
  | { face: 'docs'; document: 'api-info' | 'openapi' }
  | { face: 'page'; page: WorksPageName };

/** The pages and feeds of works (src/pages/works/works-routes.ts). */
export type WorksPageName =
  | 'home'
  | 'author'
  | 'feed.atom'
  | 'feed.json'
  | 'author-feed.atom'
  | 'author-feed.json';

export type RestAnswer =
  | 'created'
  | 'ok'
  | 'read'
  | 'cached-page'
  | 'event-stream'
  /** 200, for the caller only: `Cache-Control: private, no-store`, never replayed to anyone else. */
  | 'private'
  /** 204 with no body (a DELETE). */
  | 'no-content';

/** What a route says of its input fields; the schema itself is the operation's own. */
export interface InputFields {
  descriptions: FieldDescriptions;
  legacy?: LegacyFields;
}

/** One row of the route table: how it is served, and what the docs and OpenAPI say of it. */
export interface RouteSpec {
  serve: RouteServe;
  name: string;
  operationId: string;
  method: RouteMethod;
  /** The path; a `{name}` segment is a parameter the operation reads like a query field. */
  path: string;
  /** Other paths that answer the same way (legacy names). */
  aliases?: string[];
  description: string;
  /** `required`: the caller's account (a sign-in, a JWT from the issuer, or a key with the route's scope). */
  authentication: 'none' | 'optional' | 'required';
  /** The zod schema the route validates its JSON body with, and what each field means. */
  body?: { schema: z.ZodType; descriptions: FieldDescriptions; legacy?: LegacyFields };
  /** The zod schema the route validates its query with. */
  query?: { schema: z.ZodType; descriptions: FieldDescriptions; legacy?: LegacyFields };
  response: {
    statuses: number[];
    description: string;
    schema: z.ZodType;
    descriptions?: FieldDescriptions;
    contentTypes?: string[];
  };
  errors: ErrorCode[];
  examples: ExampleSpec[];
  notes?: string[];
  since?: '1.0' | '1.1.0';
}

/** Failures every JSON POST route can answer, besides its own. */
export const POST_ERRORS: ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_INPUT',
  'UNAUTHENTICATED',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'DB_UNAVAILABLE',
  'INTERNAL',
];

export const publishResponseDescriptions: FieldDescriptions = {
  code: 'Short code of the published item.',
  url: 'Full URL to view (or play) the item.',
  cached: 'true when the same content already existed (deduplication); 200 instead of 201.',
};

/** What every failure answers (docs/contract.md, Errors); more fields may follow (`maxDuration`, `line`, ...). */
export const errorBodySchema = z.looseObject({
  error: z.string().describe('One human sentence.'),
  message: z
    .string()
    .describe('The same sentence (clients of track-media and chat read this key).'),
  code: z.string().describe('Machine code, e.g. SOURCE_TOO_LONG.'),
});

/** The route runs `operation` on its JSON body; the body is described by the operation's schema. */
export function bodyOperation(
  operation: AnyOperation,
  answer: 'created' | 'ok',
  fields: InputFields,
): Pick<RouteSpec, 'serve' | 'body'> {
  return {
    serve: { face: 'rest', operation, from: 'body', answer },
    body: { schema: operation.input, ...fields },
  };
}

/** The route runs `operation` on its query parameters. */
export function queryOperation(
  operation: AnyOperation,
  answer: 'ok' | 'read' | 'cached-page' | 'event-stream' | 'private' | 'no-content',
  fields: InputFields,
): Pick<RouteSpec, 'serve' | 'query'> {
  return {
    serve: { face: 'rest', operation, from: 'query', answer },
    query: { schema: operation.input, ...fields },
  };
}

/** Every path that answers a route: its own and its legacy aliases. */
export const pathsOf = (spec: RouteSpec): string[] => [spec.path, ...(spec.aliases ?? [])];

/** The query parameters a route reads: its described fields and their legacy names. */
export const queryNamesOf = (spec: RouteSpec): string[] =>
  spec.query
    ? [...Object.keys(spec.query.descriptions), ...Object.keys(spec.query.legacy ?? {})]
    : [];

/** `/api/items/{code}` as express mounts it: `/api/items/:code`. */
export { expressPath } from '../../domain/route-path.js';

/** The `{name}` parameters of a path. */
export const pathParamsOf = (path: string): string[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
