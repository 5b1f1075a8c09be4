import { errorStatus } from '../app-error.js';
import type { RouteSpec } from '../http/routes/route-spec.js';
import { snippets } from './examples.js';
import {
  fieldsOf,
  inputJsonSchema,
  outputJsonSchema,
  queryJsonSchema,
  withLegacy,
} from './fields.js';

/** Statuses an endpoint can fail with, each with its machine codes. */
function errorsByStatus(spec: RouteSpec): { status: number; codes: string[] }[] {
  const byStatus = new Map<number, string[]>();
  for (const code of spec.errors)
    byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => ({ status, codes }));
}

/** One endpoint of the documentation object. */
export function endpointDoc(spec: RouteSpec, baseUrl: string) {
  const { body, query } = spec;
  return {
    name: spec.name,
    method: spec.method,
    path: spec.path,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    description: spec.description,
    authentication:
      spec.authentication === 'none'
        ? 'None (public).'
        : spec.authentication === 'required'
          ? "Required: the caller's account: a sign-in on the site, a JWT from the issuer, or Authorization: Bearer <key> (a key needs the keys scope for /api/keys, and owns the work it deletes)."
          : 'Optional: Authorization: Bearer <ACCESS_TOKEN> associates the work with an account.',
    ...(body
      ? {
          requestBody: {
            contentType: 'application/json',
            schema: fieldsOf(
              withLegacy(inputJsonSchema(body.schema), body.legacy),
              body.descriptions,
            ),
          },
        }
      : {}),
    ...(query
      ? {
          queryParameters: fieldsOf(
            withLegacy(queryJsonSchema(query.schema), query.legacy),
            query.descriptions,
          ),
        }
      : {}),
    responseBody: {
      status: spec.response.statuses,
      description: spec.response.description,
      ...(spec.response.descriptions
        ? { schema: fieldsOf(outputJsonSchema(spec.response.schema), spec.response.descriptions) }
        : {}),
    },
    errors: errorsByStatus(spec),
    examples: spec.examples.map((example) => ({
      title: example.title,
      ...(example.description ? { description: example.description } : {}),
      ...snippets(baseUrl, example.request),
      response: example.response,
    })),
    ...(spec.notes
      ? { notes: spec.notes.map((note) => note.replaceAll('{baseURL}', baseUrl)) }
      : {}),
  };
}

export type EndpointDoc = ReturnType<typeof endpointDoc>;
