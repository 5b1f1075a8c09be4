import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { errorStatus } from '../../src/app-error.js';
import { inputJsonSchema } from '../../src/docs/fields.js';
import { documentedErrors, openapiDocument } from '../../src/docs/openapi.js';
import { routeTable } from '../../src/http/routes/index.js';
import { documentedRoutes } from './routes.js';

const BASE = 'https://docs.test';
const document = () => openapiDocument({ publicUrl: BASE, graphiql: true });

type Operation = {
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
  parameters?: { name: string }[];
};

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const openapi = document();
    expect(openapi.openapi).toBe('3.1.0');
    // validate() dereferences its argument in place: give it a copy.
    const result = await validate(structuredClone(openapi) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is checked by a validator that does reject a broken document', async () => {
    const broken = structuredClone(document()) as Record<string, unknown>;
    delete broken.info;
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('describes every row of the route table, and no other', () => {
    const paths = document().paths as Record<string, Record<string, unknown>>;
    const described = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Each API path also describes the CORS preflight it answers (the `Allow` of a 405 names
    // OPTIONS); the pages and feeds answer none.
    const pagePaths = new Set(
      routeTable('')
        .filter((route) => route.serve.face === 'page')
        .map((route) => route.path),
    );
    const preflights = Object.keys(paths)
      .filter((path) => !pagePaths.has(path))
      .map((path) => `OPTIONS ${path}`);
    expect(described.sort()).toEqual([...documentedRoutes(), ...preflights].sort());
  });

  it('takes request bodies and query parameters from the schemas the routes validate with', () => {
    const paths = document().paths as Record<string, Record<string, Operation>>;
    for (const spec of routeTable(BASE)) {
      const operation = paths[spec.path]?.[spec.method.toLowerCase()] as Operation;
      if (spec.body) {
        const properties =
          operation.requestBody?.content['application/json']?.schema.properties ?? {};
        for (const [name, schema] of Object.entries(
          inputJsonSchema(spec.body.schema).properties as Record<string, unknown>,
        )) {
          expect(properties[name], `${spec.path} ${name}`).toEqual(schema);
        }
      }
      if (spec.query) {
        const names = operation.parameters?.map((parameter) => parameter.name) ?? [];
        expect(names).toEqual(
          expect.arrayContaining(
            Object.keys(inputJsonSchema(spec.query.schema).properties as object),
          ),
        );
      }
    }
  });

  it('answers every failure with the error shape {error, message, code}', () => {
    const openapi = document();
    const error = openapi.components.schemas.Error as {
      required: string[];
      properties: { code: { enum: string[] } };
    };
    expect(error.required).toEqual(expect.arrayContaining(['error', 'message', 'code']));
    expect(error.properties.code.enum).toEqual(Object.keys(errorStatus));
    const paths = openapi.paths as Record<string, Record<string, Operation>>;
    const components = openapi.components.responses as Record<
      string,
      { description: unknown; content: unknown; headers?: Record<string, unknown> }
    >;
    for (const spec of routeTable(BASE)) {
      for (const path of [spec.path, ...(spec.aliases ?? [])]) {
        const responses = paths[path]?.[spec.method.toLowerCase()]?.responses ?? {};
        const codes = documentedErrors(spec);
        const statuses = [...new Set(codes.map((code) => errorStatus[code]))].sort((a, b) => a - b);
        // Exactly the statuses of the errors the route can give with its own method (405 only
        // answers other methods), and no other failure status.
        expect(codes).not.toContain('METHOD_NOT_ALLOWED');
        expect(codes).toEqual(expect.arrayContaining(['REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE']));
        expect(
          Object.keys(responses)
            .map(Number)
            .filter((status) => status >= 400),
          path,
        ).toEqual(statuses);
        for (const code of codes) {
          const status = errorStatus[code];
          expect(responses[String(status)], `${path} ${code}`).toEqual({
            $ref: `#/components/responses/Error${status}`,
          });
          // The referenced response exists and carries the Error schema as JSON.
          const referenced = components[`Error${status}`];
          expect(referenced, `${path} ${code}: Error${status}`).toBeDefined();
          expect(typeof referenced?.description).toBe('string');
          expect(referenced?.content).toEqual({
            'application/json': { schema: { $ref: '#/components/schemas/Error' } },
          });
        }
      }
    }
    expect(components.Error401?.headers).toEqual({
      'WWW-Authenticate': { description: expect.any(String), schema: { type: 'string' } },
    });
    expect(components.Error503?.headers).toEqual({
      'Retry-After': { description: expect.any(String), schema: { type: 'string' } },
    });
    expect(components.Error429?.headers).toEqual({
      'Retry-After': { description: expect.any(String), schema: { type: 'string' } },
    });
  });
});

describe('the OpenAPI document accepts the requests the server accepts', () => {
  const ajv = () => {
    const checker = new Ajv2020({ strict: false, validateSchema: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(checker);
    checker.addSchema(document(), 'openapi.json');
    return checker;
  };
  const bodySchema = (path: string) =>
    `openapi.json#/paths/${path.replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`;

  it('store-clock takes source, or melody alone (the legacy name), but not neither', () => {
    const validate = ajv().compile({ $ref: bodySchema('/api/store-clock') });
    expect(validate({ source: 'c4' })).toBe(true);
    expect(validate({ melody: 'c4' })).toBe(true);
    expect(validate({})).toBe(false);
  });

  it('from takes a handle with or without its @', () => {
    const parameters = (
      document().paths['/api/chat-messages'] as {
        get: { parameters: { name: string; schema: object }[] };
      }
    ).get.parameters;
    const from = parameters.find((parameter) => parameter.name === 'from');
    const validate = ajv().compile(from?.schema ?? {});
    expect(validate('@jeffrey')).toBe(true);
    expect(validate('jeffrey')).toBe(true);
    expect(validate('@')).toBe(false);
    expect(validate('a b')).toBe(false);
  });
});
