import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { checkPieceExports } from '../../src/domain/piece-exports.js';
import {
  assistantResources,
  assistantTools,
  kidlispPreviewSchema,
  publishResultSchema,
} from '../../src/operations/assistant-catalog.js';
import { KIDLISP_MAX } from '../../src/operations/publish/inputs.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { httpFetch, postJson } from '../support/http-client.js';

export type Connect = (serviceUrl: string, token?: string) => Promise<Client>;

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

const textOf = (result: ToolResult) =>
  (result.content as { type: string; text?: string }[]).map((item) => item.text ?? '').join('');

/**
 * The `{code, message}` of a tool error, read from its text (`message (CODE)`): an error result
 * has no structured content, which would contradict the tool's output schema.
 */
export function failureOf(result: ToolResult) {
  expect(result.isError, textOf(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const match = /^(.+) \(([A-Z_]+)\)$/s.exec(textOf(result));
  expect(match, textOf(result)).not.toBeNull();
  return { message: match?.[1] as string, code: match?.[2] as string };
}

function publishedOf(result: ToolResult) {
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return publishResultSchema.strict().parse(result.structuredContent);
}

/**
 * What every face of the assistant server must do against a real running service: the same
 * checks run over stdio (the built bin, through REST) and over Streamable HTTP at /mcp.
 */
export function describeAssistantSurface(
  label: string,
  connect: Connect,
): { app: () => TestApp; client: () => Client } {
  let app: TestApp;
  let client: Client;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connect(app.url);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  describe(`${label}: listing`, () => {
    it("lists exactly the catalog's tools, each with input and output schemas", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(assistantTools).sort());
      for (const tool of tools) {
        const entry = assistantTools[tool.name as keyof typeof assistantTools];
        expect(tool.description).toBe(entry.description);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
      }
      const publish = tools.find((tool) => tool.name === 'publish_piece');
      expect(publish?.inputSchema.required).toEqual(['source']);
      expect(Object.keys(publish?.outputSchema?.properties ?? {}).sort()).toEqual([
        'cached',
        'code',
        'url',
      ]);
    });

    it('lists the three resources with their mime types', async () => {
      const { resources } = await client.listResources();
      const listed = resources.map((resource) => ({
        uri: resource.uri,
        mimeType: resource.mimeType,
      }));
      expect(listed).toEqual(
        expect.arrayContaining([
          { uri: 'service://piece-template', mimeType: 'text/javascript' },
          { uri: 'service://kidlisp-reference', mimeType: 'text/markdown' },
          { uri: 'service://piece-examples', mimeType: 'text/markdown' },
        ]),
      );
      expect(resources).toHaveLength(3);
    });

    it('lists the three prompts with their required arguments', async () => {
      const { prompts } = await client.listPrompts();
      const listed = Object.fromEntries(
        prompts.map((prompt) => [
          prompt.name,
          prompt.arguments?.map((arg) => [arg.name, arg.required]),
        ]),
      );
      expect(listed).toEqual({
        'create-piece': [
          ['name', true],
          ['description', true],
        ],
        'create-kidlisp': [['description', true]],
        'remix-kidlisp': [
          ['code', true],
          ['idea', true],
        ],
      });
    });
  });

  describe(`${label}: resources`, () => {
    const read = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      return contents[0] as { uri: string; mimeType?: string; text: string };
    };

    it('reads a piece template with all four lifecycle functions that passes the export check', async () => {
      const template = await read(assistantResources.pieceTemplate.uri);
      expect(template.mimeType).toBe('text/javascript');
      const check = checkPieceExports(template.text);
      expect(check).toMatchObject({ ok: true });
      expect(check.ok && [...check.lifecycle].sort()).toEqual(['act', 'boot', 'paint', 'sim']);
    });

    it('reads the KidLisp reference', async () => {
      const reference = await read(assistantResources.kidlispReference.uri);
      expect(reference.mimeType).toBe('text/markdown');
      expect(reference.text).toMatch(/^# KidLisp/);
      expect(reference.text).toContain('my_var');
    });

    it('reads examples: bundled ones on an empty database, then the most published KidLisp by hits', async () => {
      await app.db.kidlisp.deleteMany({});
      const bundled = await read(assistantResources.pieceExamples.uri);
      expect(bundled.mimeType).toBe('text/markdown');
      expect(bundled.text).toContain('bundled examples');

      const now = new Date();
      const record = (code: string, hits: number) => ({
        code,
        source: `(wipe c${hits}) ; ${code}`,
        hash: code,
        when: now,
        lastAccessed: now,
        hits,
      });
      await app.db.kidlisp.insertMany([record('lowx', 2), record('topx', 900), record('midx', 40)]);
      const top = await read(assistantResources.pieceExamples.uri);
      expect(top.text).not.toContain('bundled examples');
      expect(top.text.indexOf('topx')).toBeLessThan(top.text.indexOf('midx'));
      expect(top.text.indexOf('midx')).toBeLessThan(top.text.indexOf('lowx'));
      expect(top.text).toContain(`${app.service.services.config.publicUrl}/topx`);
      expect(top.text).toContain('(wipe c900) ; topx');
    });
  });

  describe(`${label}: prompts`, () => {
    it('gets create-piece with its arguments in the message', async () => {
      const prompt = await client.getPrompt({
        name: 'create-piece',
        arguments: { name: 'orbit', description: 'circles that orbit the pointer' },
      });
      const text = prompt.messages
        .map((message) => (message.content as { text: string }).text)
        .join('\n');
      expect(text).toContain('"orbit"');
      expect(text).toContain('circles that orbit the pointer');
      expect(text).toContain('publish_piece');
    });

    it('gets create-kidlisp with its argument in the message', async () => {
      const prompt = await client.getPrompt({
        name: 'create-kidlisp',
        arguments: { description: 'a slow rainbow tunnel' },
      });
      const text = prompt.messages
        .map((message) => (message.content as { text: string }).text)
        .join('\n');
      expect(text).toContain('a slow rainbow tunnel');
      expect(text).toContain('preview_kidlisp');
      expect(text).toContain('publish_kidlisp');
    });

    it('refuses a missing required argument', async () => {
      await expect(
        client.getPrompt({ name: 'create-piece', arguments: { name: 'orbit' } }),
      ).rejects.toThrow(/description/);
      await expect(client.getPrompt({ name: 'create-kidlisp', arguments: {} })).rejects.toThrow(
        /description/,
      );
    });
  });

  describe(`${label}: tools`, () => {
    it('publish_kidlisp publishes; the code is in the database; REST returns the same code for the same source', async () => {
      const source = `(wipe navy)\n(ink yellow)\n(circle w/2 h/2 ${label.length + 40})`;
      const published = publishedOf(
        await client.callTool({ name: 'publish_kidlisp', arguments: { source } }),
      );
      expect(published.cached).toBe(false);
      expect(published.url).toBe(`${app.service.services.config.publicUrl}/${published.code}`);
      expect(await app.db.kidlisp.findOne({ code: published.code })).toMatchObject({
        source,
        hits: 1,
      });

      const viaRest = await postJson(`${app.url}/api/store-kidlisp`, { source });
      expect(viaRest.status).toBe(200);
      expect(viaRest.body).toMatchObject({ code: published.code, cached: true });
    });

    it('publish_clock and publish_piece publish too', async () => {
      const clock = publishedOf(
        await client.callTool({
          name: 'publish_clock',
          arguments: { source: `c4 e4 g4 ${label.length}` },
        }),
      );
      expect(clock.url).toBe(`${app.service.services.config.publicUrl}/clock~${clock.code}`);
      expect(await app.db.clocks.countDocuments({ code: clock.code })).toBe(1);

      const source = `export function paint({ wipe }) { wipe('${label.length}'); }`;
      const piece = publishedOf(
        await client.callTool({
          name: 'publish_piece',
          arguments: { source, name: `Tool Piece ${label}` },
        }),
      );
      expect(piece.code).toMatch(/^tool-piece-/);
      expect(await app.db.pieces.findOne({ code: piece.code })).toMatchObject({ source });
      const again = publishedOf(
        await client.callTool({ name: 'publish_piece', arguments: { source } }),
      );
      expect(again).toEqual({ ...piece, cached: true });
    });

    it('preview_kidlisp checks without publishing', async () => {
      const before = await app.db.kidlisp.countDocuments();
      const good = await client.callTool({
        name: 'preview_kidlisp',
        arguments: { source: 'purple, ink, line, blur 5' },
      });
      expect(kidlispPreviewSchema.strict().parse(good.structuredContent)).toMatchObject({
        valid: true,
        errors: [],
      });
      const bad = kidlispPreviewSchema.parse(
        (await client.callTool({ name: 'preview_kidlisp', arguments: { source: '(ink red))' } }))
          .structuredContent,
      );
      expect(bad.valid).toBe(false);
      expect(bad.diagnostics).toContainEqual(
        expect.objectContaining({ severity: 'error', line: 1, column: 10 }),
      );
      // A '(' left open runs (the runtime closes it): a warning at its position; the words the
      // viewer would not draw are listed.
      const open = kidlispPreviewSchema.strict().parse(
        (
          await client.callTool({
            name: 'preview_kidlisp',
            arguments: { source: '(wipe navy)\n(once cube (ink red)\n(line beat 0 9 9)' },
          })
        ).structuredContent,
      );
      expect(open).toMatchObject({ valid: true, errors: [] });
      expect(open.diagnostics).toEqual([
        expect.objectContaining({ severity: 'warning', line: 2, column: 1 }),
      ]);
      expect(open.stats.not_drawn).toEqual(['beat', 'cube']);
      expect(await app.db.kidlisp.countDocuments()).toBe(before);
    });

    it('get_api_info returns the documentation object GET /api serves', async () => {
      const result = await client.callTool({ name: 'get_api_info', arguments: {} });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const rest = await httpFetch(`${app.url}/api`, { headers: { accept: 'application/json' } });
      expect(result.structuredContent).toEqual(await rest.json());
      expect(result.structuredContent).toMatchObject({ version: '1.1.0' });
    });

    it('an over-length source is a tool error with SOURCE_TOO_LONG', async () => {
      const source = 'x'.repeat(KIDLISP_MAX + 1);
      expect(
        failureOf(await client.callTool({ name: 'publish_kidlisp', arguments: { source } })),
      ).toMatchObject({ code: 'SOURCE_TOO_LONG' });
      expect(
        failureOf(await client.callTool({ name: 'preview_kidlisp', arguments: { source } })),
      ).toMatchObject({ code: 'SOURCE_TOO_LONG' });
      expect(await app.db.kidlisp.countDocuments({ source })).toBe(0);
    });

    it('other failures carry the service message and code', async () => {
      const failure = failureOf(
        await client.callTool({
          name: 'publish_piece',
          arguments: { source: 'const x = 1; // export function paint' },
        }),
      );
      expect(failure.code).toBe('PIECE_NO_LIFECYCLE');
      expect(failure.message).toMatch(/boot, paint, sim or act/);
      expect(
        failureOf(await client.callTool({ name: 'publish_kidlisp', arguments: { source: '   ' } }))
          .code,
      ).toBe('SOURCE_REQUIRED');
    });

    it('publishes for the account of a bearer token', async () => {
      await app.db.handles.insertOne({ _id: `auth0|${label}`, handle: `mcp${label.length}` });
      const { token } = await createApiToken(app.db, {
        handle: `mcp${label.length}`,
        account: `auth0|${label}`,
      });
      const owned = await connect(app.url, token);
      try {
        const published = publishedOf(
          await owned.callTool({
            name: 'publish_kidlisp',
            arguments: { source: `(wipe gold) ; ${label}` },
          }),
        );
        expect(await app.db.kidlisp.findOne({ code: published.code })).toMatchObject({
          user: `auth0|${label}`,
        });
      } finally {
        await owned.close();
      }
    });
  });

  return { app: () => app, client: () => client };
}
