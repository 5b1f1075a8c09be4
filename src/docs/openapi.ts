import { ERROR_STATUS_HEADERS, type ErrorCode, errorStatus } from '../app-error.js';
import { formatBytes } from '../domain/format.js';
import { MAX_BODY_BYTES } from '../http/body-limit.js';
import { routeTable } from '../http/routes/index.js';
import { errorBodySchema, pathParamsOf, type RouteSpec } from '../http/routes/route-spec.js';
import { SERVICE_VERSION } from '../version.js';
import { API_TITLE, type DocsConfig } from './api-info.js';
import {
  inputJsonSchema,
  type JsonSchema,
  outputJsonSchema,
  queryJsonSchema,
  withLegacy,
} from './fields.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: malformed JSON, a missing or mistyped field, or a value outside its rules.',
  401: 'A bearer token was sent but is invalid, expired or revoked (or none was, where an account is required).',
  403: 'The credentials may not do this: a key without the scope, or a form posted from another site.',
  404: 'Not found.',
  405: 'Method not allowed on this path (any method this document does not list for it).',
  408: 'The request (headers and body) took too long to arrive.',
  410: 'The work was taken down (ITEM_REMOVED): removed by an operator or deleted by its author.',
  413: `Body larger than ${formatBytes(MAX_BODY_BYTES)}.`,
  415: 'Body sent with a content type other than JSON.',
  422: 'The program could not be drawn within the time budget.',
  429: 'Rate limit exceeded.',
  431: 'Request headers (the URL included) too large.',
  500: 'Unexpected failure.',
  503: 'A backing service (database or storage) is unavailable; retry later.',
};

const ERROR_HEADERS: Record<number, Record<string, string>> = Object.fromEntries(
  Object.entries(ERROR_STATUS_HEADERS).map(([status, header]) => [
    status,
    { [header.name]: 'value' in header ? header.value : header.meaning },
  ]),
);

function errorResponse(status: number) {
  const headers = ERROR_HEADERS[status];
  return {
    description: STATUS_TEXT[status] ?? 'Error.',
    ...(headers
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, description]) => [
              name,
              { description, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function errorSchema(): JsonSchema {
  const schema = outputJsonSchema(errorBodySchema);
  const properties = schema.properties as Record<string, JsonSchema>;
  return {
    ...schema,
    properties: { ...properties, code: { ...properties.code, enum: Object.keys(errorStatus) } },
  };
}

/** The operation's input fields: a `{name}` of the path is a path parameter, the rest query parameters. */
function queryParameters(spec: RouteSpec) {
  if (!spec.query) return undefined;
  const schema = withLegacy(queryJsonSchema(spec.query.schema), spec.query.legacy);
  const required = new Set((schema.required ?? []) as string[]);
  const inPath = new Set(pathParamsOf(spec.path));
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, property]) => ({
      name,
      in: inPath.has(name) ? 'path' : 'query',
      required: inPath.has(name) || required.has(name),
      description: spec.query?.descriptions[name] ?? property.description,
      schema: property,
    }),
  );
}

function requestBody(spec: RouteSpec) {
  if (!spec.body) return undefined;
  const schema = withLegacy(inputJsonSchema(spec.body.schema), spec.body.legacy);
  const examples = Object.fromEntries(
    spec.examples.map((example) => [example.title, { value: example.request.body }]),
  );
  return { required: true, content: { 'application/json': { schema, examples } } };
}

function successResponses(spec: RouteSpec) {
  const schema = outputJsonSchema(spec.response.schema);
  const content = Object.fromEntries(
    (spec.response.contentTypes ?? ['application/json']).map((type) => [
      type,
      { schema: type.endsWith('json') ? schema : { type: 'string' } },
    ]),
  );
  return {
    ...Object.fromEntries(
      spec.response.statuses.map((status) => [
        String(status),
        status === 204
          ? { description: spec.response.description }
          : { description: spec.response.description, content },
      ]),
    ),
    // Every GET answer carries an ETag; a request whose If-None-Match still matches gets 304.
    ...(spec.method === 'GET'
      ? {
          '304': {
            description: 'Not modified: the If-None-Match ETag still matches; no body.',
            headers: { ETag: { description: 'The same ETag.', schema: { type: 'string' } } },
          },
        }
      : {}),
  };
}

/**
 * Failures that can answer any request whatever its route: they are listed on every operation.
 * METHOD_NOT_ALLOWED is not: it answers only methods a path does not have (components/responses/Error405).
 */
const TRANSPORT_ERRORS: ErrorCode[] = ['REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE'];

/** The CORS preflight every /api path answers (the `Allow` header of a 405 names OPTIONS). */
function preflight(operationId: string, path: string) {
  const header = (description: string) => ({ description, schema: { type: 'string' } });
  const inPath = pathParamsOf(path);
  return {
    operationId: `${operationId}Preflight`,
    summary: 'CORS preflight',
    ...(inPath.length > 0
      ? {
          parameters: inPath.map((name) => ({
            name,
            in: 'path',
            required: true,
            schema: { type: 'string' },
          })),
        }
      : {}),
    description:
      'Answers a browser\u2019s preflight: any origin, GET, POST and DELETE, Content-Type and Authorization.',
    security: [],
    responses: {
      '204': {
        description: 'No content; the CORS headers.',
        headers: {
          'Access-Control-Allow-Origin': header('*'),
          'Access-Control-Allow-Methods': header('GET,POST,DELETE,OPTIONS'),
          'Access-Control-Allow-Headers': header('Content-Type,Authorization'),
          'Access-Control-Max-Age': header('86400'),
        },
      },
    },
  };
}

/** The failures the document lists under a route's own method. */
export const documentedErrors = (spec: RouteSpec): ErrorCode[] =>
  [...new Set([...spec.errors, ...TRANSPORT_ERRORS])].filter(
    (code) => code !== 'METHOD_NOT_ALLOWED',
  );

function operation(spec: RouteSpec, operationId: string) {
  const codes = documentedErrors(spec);
  const errorStatuses = [...new Set(codes.map((code) => errorStatus[code]))].sort((a, b) => a - b);
  const parameters = queryParameters(spec);
  const body = requestBody(spec);
  return {
    operationId,
    summary: spec.name,
    description: spec.description,
    security:
      spec.authentication === 'optional'
        ? [{}, { bearerAuth: [] }]
        : spec.authentication === 'required'
          ? [{ bearerAuth: [] }]
          : [],
    ...(parameters ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...successResponses(spec),
      ...Object.fromEntries(
        errorStatuses.map((status) => [
          String(status),
          { $ref: `#/components/responses/Error${status}` },
        ]),
      ),
    },
  };
}

/** OpenAPI 3.1 for the REST routes, from the same zod schemas the routes validate with. */
export function openapiDocument(config: DocsConfig) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routeTable(config.publicUrl)) {
    [spec.path, ...(spec.aliases ?? [])].forEach((path, index) => {
      const operationId = index === 0 ? spec.operationId : `${spec.operationId}Alias${index}`;
      paths[path] = {
        ...paths[path],
        [spec.method.toLowerCase()]: operation(spec, operationId),
        // Pages and feeds are read by browsers and feed readers: they answer no CORS preflight.
        ...(spec.serve.face === 'page' ? {} : { options: preflight(operationId, path) }),
      };
    });
  }
  const statuses = Object.keys(STATUS_TEXT).map(Number);
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: SERVICE_VERSION,
      description: `Full documentation: ${config.publicUrl}/api`,
    },
    servers: [{ url: config.publicUrl }],
    paths,
    components: {
      schemas: { Error: errorSchema() },
      responses: Object.fromEntries(
        statuses.map((status) => [`Error${status}`, errorResponse(status)]),
      ),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Optional on publishing routes.',
        },
      },
    },
  };
}
