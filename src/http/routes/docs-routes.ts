import { z } from 'zod';
import { apiInfoOutputSchema } from '../../operations/assistant-catalog.js';
import type { RouteSpec } from './route-spec.js';

/** `?format=json|html` overrides the Accept header, as the reference docs route does. */
export const docsQuery = z.object({ format: z.enum(['json', 'html']).optional() });

const openapiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({}),
  paths: z.looseObject({}),
});

export function docsRoutes(): RouteSpec[] {
  return [
    {
      name: 'API documentation',
      operationId: 'apiDocs',
      serve: { face: 'docs', document: 'api-info' },
      method: 'GET',
      path: '/api',
      aliases: ['/api/docs', '/api/api-docs', '/api-docs.json'],
      description:
        'This documentation: JSON, or a readable HTML page when the client asks for text/html. /api-docs.json is always JSON.',
      authentication: 'none',
      query: {
        schema: docsQuery,
        descriptions: { format: 'json or html; overrides the Accept header.' },
      },
      response: {
        statuses: [200],
        description: 'The documentation object (the same that the MCP tool get_api_info returns).',
        schema: apiInfoOutputSchema,
        contentTypes: ['application/json', 'text/html'],
      },
      errors: ['METHOD_NOT_ALLOWED'],
      examples: [
        {
          title: 'Read the documentation as JSON',
          request: { method: 'GET', path: '/api', query: { format: 'json' } },
          response: { status: 200, body: { title: '...', version: '1.1.0', endpoints: ['...'] } },
        },
      ],
    },
    {
      name: 'OpenAPI document',
      operationId: 'openapi',
      serve: { face: 'docs', document: 'openapi' },
      method: 'GET',
      path: '/api/openapi.json',
      description:
        'OpenAPI 3.1 description of these REST routes, generated from the schemas the service validates with.',
      authentication: 'none',
      response: {
        statuses: [200],
        description: 'An OpenAPI 3.1 document.',
        schema: openapiDocumentSchema,
      },
      errors: ['METHOD_NOT_ALLOWED'],
      examples: [
        {
          title: 'Fetch the OpenAPI document',
          request: { method: 'GET', path: '/api/openapi.json' },
          response: { status: 200, body: { openapi: '3.1.0', info: { title: '...' }, paths: {} } },
        },
      ],
    },
  ];
}
