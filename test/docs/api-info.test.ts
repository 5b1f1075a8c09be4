import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiInfo } from '../../src/docs/api-info.js';
import type { FieldDoc } from '../../src/docs/fields.js';
import { MAX_TAPE_SECONDS } from '../../src/domain/media.js';
import { routeTable } from '../../src/http/routes/index.js';
import {
  assistantPackage,
  assistantPrompts,
  assistantResources,
  assistantResourceTemplates,
  assistantTools,
} from '../../src/operations/assistant-catalog.js';
import {
  CHAT_LIMIT_DEFAULT,
  CHAT_LIMIT_MAX,
  CHAT_SEARCH_MAX,
  listChatMessagesInput,
} from '../../src/operations/chat/index.js';
import { LIST_LIMIT_MAX, WORKS_SEARCH_MAX } from '../../src/operations/items/index.js';
import { searchWorksInput } from '../../src/operations/items/search-works.js';
import {
  CLOCK_MAX,
  KIDLISP_MAX,
  PIECE_MAX,
  trackMediaInput,
} from '../../src/operations/publish/inputs.js';
import { inputError } from '../../src/operations/validation.js';
import { documentedRoutes as tableRoutes } from './routes.js';

const BASE = 'https://docs.test';
const info = apiInfo({ publicUrl: BASE, graphiql: true });
const specs = routeTable(BASE);

const documentedRoutes = () =>
  info.endpoints
    .flatMap((endpoint) =>
      [endpoint.path, ...(endpoint.aliases ?? [])].map((path) => `${endpoint.method} ${path}`),
    )
    .sort();

/** The machine code a schema answers for an input, or 'ok'. */
function outcome(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  return result.success ? 'ok' : inputError(result.error, input).code;
}

const endpoint = (path: string) => {
  const found = info.endpoints.find((entry) => entry.path === path);
  if (!found) throw new Error(`${path} is not documented`);
  return found;
};
const spec = (path: string) => specs.find((entry) => entry.path === path) as (typeof specs)[number];
const bodyField = (path: string, field: string) =>
  (endpoint(path) as { requestBody?: { schema: Record<string, FieldDoc> } }).requestBody?.schema[
    field
  ];

describe('the documentation object', () => {
  it('has the contract header: title, version 1.1.0, updated 2026-08-03, base URL from configuration', () => {
    expect(info).toMatchObject({ version: '1.1.0', updated: '2026-08-03', baseURL: BASE });
    expect(info.title).toBe('Publishing and Chat-Reading API');
    expect(typeof info.description).toBe('string');
    for (const surface of [/\bREST\b/, /\bGraphQL\b/, /\bMCP\b/])
      expect(info.description).toMatch(surface);
    expect(apiInfo({ publicUrl: 'https://other.test', graphiql: true }).baseURL).toBe(
      'https://other.test',
    );
  });

  it('documents every row of the route table the service is mounted from, and no other', () => {
    expect(documentedRoutes()).toEqual(tableRoutes());
  });

  it('documents every assistant tool, resource, resource template and prompt of the catalog, and no other', () => {
    expect(info.mcp.tools.map((tool) => tool.name).sort()).toEqual(
      Object.keys(assistantTools).sort(),
    );
    expect(info.mcp.resources.map((resource) => resource.uri).sort()).toEqual(
      Object.values(assistantResources)
        .map((r) => r.uri)
        .sort(),
    );
    expect(info.mcp.prompts.map((prompt) => prompt.name).sort()).toEqual(
      Object.keys(assistantPrompts).sort(),
    );
    expect(info.mcp.resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      Object.values(assistantResourceTemplates).map((template) => template.uriTemplate),
    );
    expect(info.mcp.package).toBe(assistantPackage.name);
    expect(info.mcp.install).toBe(assistantPackage.install);
    for (const tool of info.mcp.tools) {
      const catalog = assistantTools[tool.name as keyof typeof assistantTools];
      expect(Object.keys(tool.input).sort()).toEqual(Object.keys(catalog.inputSchema.shape).sort());
    }
  });

  it('gives client configurations that name the server command and point at this service', () => {
    for (const text of Object.values(info.mcp.configuration)) {
      const config = JSON.parse(text) as {
        mcpServers: Record<string, { command: string; env: Record<string, string> }>;
      };
      const [entry] = Object.values(config.mcpServers);
      expect(entry?.command).toBe(assistantPackage.bin);
      expect(entry?.env.SERVICE_URL).toBe(BASE);
    }
  });

  it('gives every endpoint a description, fields with meanings, and curl, JavaScript and Python examples', () => {
    for (const entry of info.endpoints) {
      expect(entry.description, entry.path).toBeTruthy();
      expect(entry.examples.length, entry.path).toBeGreaterThan(0);
      for (const example of entry.examples) {
        // A `{parameter}` of the path is filled in by the example.
        const [before] = entry.path.split('{');
        expect(example.curl).toContain(`${BASE}${before}`);
        expect(example.javascript).toContain('fetch(');
        expect(example.python).toContain('requests.');
      }
      const fields = {
        ...('requestBody' in entry ? entry.requestBody?.schema : {}),
        ...('queryParameters' in entry ? entry.queryParameters : {}),
      };
      for (const [name, field] of Object.entries(fields))
        expect(field.description, `${entry.path} ${name}`).toBeTruthy();
    }
  });
});

describe('documented limits equal the limits the schemas enforce', () => {
  const cases = [
    { path: '/api/store-kidlisp', max: KIDLISP_MAX },
    { path: '/api/store-clock', max: CLOCK_MAX },
    { path: '/api/store-piece', max: PIECE_MAX },
  ];

  it.each(cases)('$path: source is at most $max characters', ({ path, max }) => {
    expect(bodyField(path, 'source')?.maxLength).toBe(max);
    const schema = spec(path).body?.schema as z.ZodType;
    const source = (length: number) =>
      (path === '/api/store-piece' ? 'export const boot = 1;' : 'c')
        .padEnd(length, ' ')
        .replace(/ $/, 'x');
    expect(outcome(schema, { source: source(max) })).toBe('ok');
    expect(outcome(schema, { source: source(max + 1) })).toBe('SOURCE_TOO_LONG');
    expect(info.limits.find((limit) => limit.appliesTo.includes(path))?.value).toBe(max);
  });

  it('tapes are at most the documented number of seconds', () => {
    const limit = info.limits.find((entry) => entry.appliesTo.includes('totalDuration'));
    expect(limit?.value).toBe(MAX_TAPE_SECONDS);
    const tape = (seconds: number) => ({
      slug: '2026/08/03/t.zip',
      ext: 'zip',
      metadata: { totalDuration: seconds },
    });
    expect(outcome(trackMediaInput, tape(limit?.value ?? NaN))).toBe('ok');
    expect(outcome(trackMediaInput, tape((limit?.value ?? NaN) + 0.01))).toBe('TAPE_TOO_LONG');
  });

  it('track-media ext is exactly the enum the schema accepts', () => {
    const ext = bodyField('/api/track-media', 'ext');
    expect(ext?.enum).toEqual(trackMediaInput.shape.ext.options);
  });

  it('chat limit: the documented default and maximum are what the schema applies', () => {
    const limit = (endpoint('/api/chat-messages') as { queryParameters: Record<string, FieldDoc> })
      .queryParameters.limit;
    expect(limit).toMatchObject({
      default: CHAT_LIMIT_DEFAULT,
      maximum: CHAT_LIMIT_MAX,
      minimum: 1,
    });
    expect(listChatMessagesInput.parse({}).limit).toBe(limit?.default);
    expect(outcome(listChatMessagesInput, { limit: String(limit?.maximum) })).toBe('ok');
    expect(outcome(listChatMessagesInput, { limit: String((limit?.maximum ?? NaN) + 1) })).toBe(
      'LIMIT_TOO_LARGE',
    );
  });

  it('chat search: the documented length is what the schema allows', () => {
    const search = (endpoint('/api/chat-messages') as { queryParameters: Record<string, FieldDoc> })
      .queryParameters.search;
    expect(search?.maxLength).toBe(CHAT_SEARCH_MAX);
    expect(outcome(listChatMessagesInput, { search: 'a'.repeat(CHAT_SEARCH_MAX) })).toBe('ok');
    expect(outcome(listChatMessagesInput, { search: 'a'.repeat(CHAT_SEARCH_MAX + 1) })).toBe(
      'SEARCH_TOO_LONG',
    );
  });

  it('works search: the documented length, default and maximum page are what the schema applies', () => {
    const query = (endpoint('/api/items') as { queryParameters: Record<string, FieldDoc> })
      .queryParameters;
    expect(query.search?.maxLength).toBe(WORKS_SEARCH_MAX);
    expect(query.limit).toMatchObject({ default: 50, maximum: LIST_LIMIT_MAX, minimum: 1 });
    expect(searchWorksInput.parse({}).limit).toBe(query.limit?.default);
    const term = (length: number) => ({ search: 'a'.repeat(length) });
    expect(outcome(searchWorksInput, term(WORKS_SEARCH_MAX))).toBe('ok');
    expect(outcome(searchWorksInput, term(WORKS_SEARCH_MAX + 1))).toBe('SEARCH_TOO_LONG');
    expect(outcome(searchWorksInput, { limit: String(LIST_LIMIT_MAX + 1) })).toBe(
      'LIMIT_TOO_LARGE',
    );
    const documented = info.limits.filter((limit) => limit.appliesTo.includes('GET /api/items'));
    expect(documented.map((limit) => limit.value).sort()).toEqual(
      [LIST_LIMIT_MAX, WORKS_SEARCH_MAX].sort(),
    );
  });

  it('documents the legacy names the schemas accept (melody, q)', () => {
    expect(bodyField('/api/store-clock', 'melody')?.maxLength).toBe(CLOCK_MAX);
    expect(outcome(spec('/api/store-clock').body?.schema as z.ZodType, { melody: 'cdefg' })).toBe(
      'ok',
    );
    const query = (endpoint('/api/chat-messages') as { queryParameters: Record<string, FieldDoc> })
      .queryParameters;
    expect(query.q?.maxLength).toBe(CHAT_SEARCH_MAX);
    expect(listChatMessagesInput.parse({ q: 'hi' }).search).toBe('hi');
  });

  it('every documented error code is a code the service has', () => {
    const known = new Set(info.errors.codes.map((entry) => entry.code));
    for (const entry of info.endpoints)
      for (const group of entry.errors)
        for (const code of group.codes) expect(known.has(code), code).toBe(true);
  });
});
