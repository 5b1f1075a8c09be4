import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assistantResourceTemplates,
  kidlispRenderSchema,
} from '../../src/operations/assistant-catalog.js';
import { RENDER_BUDGET_MS } from '../../src/operations/kidlisp/render-limits.js';
import type { TestApp } from '../support/app.js';
import { postJson } from '../support/http-client.js';

/**
 * What the v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client) clients share
 * and these checks use: each is passed as it is, so both SDKs' own parsing runs.
 */
export interface McpClientLike {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResourceTemplates(): Promise<{
    resourceTemplates: { uriTemplate: string; name: string; mimeType?: string }[];
  }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  complete(params: {
    ref: { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[] } }>;
  getPrompt(params: {
    name: string;
    arguments: Record<string, string>;
  }): Promise<{ messages: { content: unknown }[] }>;
  close(): Promise<void>;
}

type ToolAnswer = {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
};

const textOf = (answer: ToolAnswer) =>
  answer.content.map((item) => (item.type === 'text' ? item.text : '')).join('');

/** The RGBA of one pixel of a PNG, decoded by @napi-rs/canvas (Skia's PNG decoder). */
export async function pixelOf(base64: string, x: number, y: number): Promise<number[]> {
  const image = await loadImage(Buffer.from(base64, 'base64'));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return [...context.getImageData(x, y, 1, 1).data];
}

const NAVY = [0, 0, 128, 255];
const RED = [255, 0, 0, 255];
/** Blurs every frame until the step budget cuts it, for a minute of frames: never done in time. */
const NEVER_DONE = '(wipe navy) (repeat 10000 i (repeat 10000 j (blur 9)))';

/**
 * render_kidlisp, the `service://items/{code}` template with completion, the word states of
 * the KidLisp reference and the remix-kidlisp prompt, as one client sees them.
 */
export function describeRenderSurface(
  label: string,
  app: () => TestApp,
  client: () => McpClientLike,
): void {
  const call = async (args: Record<string, unknown>) =>
    (await client().callTool({ name: 'render_kidlisp', arguments: args })) as ToolAnswer;

  describe(`${label}: render_kidlisp`, () => {
    beforeAll(async () => {
      // Listing first: from then on the v1 client checks structured content against the output schema.
      const { tools } = await client().listTools();
      expect(tools.map((tool) => tool.name)).toContain('render_kidlisp');
    });

    it('draws a red box on navy: the decoded PNG is red at (10, 10) and navy at (100, 100)', async () => {
      const answer = await call({ source: '(wipe navy) (ink red) (box 0 0 20 20)' });
      expect(answer.isError ?? false, textOf(answer)).toBe(false);
      const images = answer.content.filter((item) => item.type === 'image');
      expect(images).toHaveLength(1);
      expect(images[0]?.mimeType).toBe('image/png');
      const data = images[0]?.data as string;
      expect(await pixelOf(data, 10, 10)).toEqual(RED);
      expect(await pixelOf(data, 100, 100)).toEqual(NAVY);
      const image = await loadImage(Buffer.from(data, 'base64'));
      expect([image.width, image.height]).toEqual([256, 256]);
      const structured = kidlispRenderSchema.strict().parse(answer.structuredContent);
      expect(structured).toMatchObject({
        frames: [0],
        width: 256,
        height: 256,
        report: { unsupported: [], unknown: [], problems: [] },
        preview: { valid: true, errors: [] },
      });
    });

    it('draws each frame asked, at the size asked, in frame order', async () => {
      const answer = await call({
        source: '(wipe black) (ink white) (box 0 0 (* frame 2) 4)',
        frames: [30, 0],
        width: 64,
        height: 32,
        seed: 5,
      });
      const images = answer.content.filter((item) => item.type === 'image');
      expect(answer.structuredContent).toMatchObject({ frames: [0, 30], seed: 5 });
      expect(images).toHaveLength(2);
      const [first, later] = images.map((image) => image.data as string);
      expect((await loadImage(Buffer.from(first as string, 'base64'))).width).toBe(64);
      // The box is frame*2 wide: nothing at x=30 on frame 0, white there on frame 30.
      expect(await pixelOf(first as string, 30, 1)).toEqual([0, 0, 0, 255]);
      expect(await pixelOf(later as string, 30, 1)).toEqual([255, 255, 255, 255]);
    });

    it('reports a word the runtime does not know, and one it does not draw', async () => {
      const answer = await call({ source: '(wipe navy)\n(frobnicate 3)\n(cube 1 1)' });
      expect(answer.isError ?? false, textOf(answer)).toBe(false);
      const structured = kidlispRenderSchema.parse(answer.structuredContent);
      expect(structured.report.unknown).toContain('frobnicate');
      expect(structured.report.unsupported).toContain('cube');
      expect(structured.preview.warnings.join(' ')).toMatch(/Unknown word 'frobnicate' at line 2/);
    });

    it('answers a program that never finishes its frames within the time budget, with RENDER_TOO_SLOW', async () => {
      const started = Date.now();
      const answer = await call({ source: NEVER_DONE, frames: [3_600] });
      const elapsed = Date.now() - started;
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toBeUndefined();
      expect(textOf(answer)).toMatch(/within the time budget of \d+ ms.*\(RENDER_TOO_SLOW\)$/s);
      expect(elapsed).toBeGreaterThanOrEqual(RENDER_BUDGET_MS - 100);
      expect(elapsed).toBeLessThan(RENDER_BUDGET_MS + 3_000);
    });

    it('refuses frames past the limit with the reason', async () => {
      const answer = await call({ source: '(wipe red)', frames: [0, 1, 2, 3, 4, 5, 6, 7, 8] });
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(/frames must be a list of 1 to 8 .*\(INVALID_INPUT\)$/s);
    });
  });

  describe(`${label}: the items template, its completion and the prompt`, () => {
    let kidlispCode: string;
    let paintingCode: string;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );

    beforeAll(async () => {
      const source = `(wipe teal) ; ${label}`;
      kidlispCode = (await postJson(`${app().url}/api/store-kidlisp`, { source })).body.code;
      const slug = `2026/08/03/${label.replace(/\W/g, '')}.png`;
      await app().services.storage.put(slug, png, 'image/png');
      paintingCode = (await postJson(`${app().url}/api/track-media`, { slug, ext: 'png' })).body
        .code;
    });

    it('lists the template', async () => {
      const { resourceTemplates } = await client().listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({
          uriTemplate: 'service://items/{code}',
          name: assistantResourceTemplates.items.name,
          mimeType: 'application/json',
        }),
      ]);
    });

    it("reads a work's facts and source as text, and a painting's PNG as a blob", async () => {
      const work = await client().readResource({ uri: `service://items/${kidlispCode}` });
      expect(work.contents).toHaveLength(1);
      const [facts] = work.contents as { text: string; mimeType: string }[];
      expect(facts?.mimeType).toBe('application/json');
      expect(JSON.parse(facts?.text as string)).toMatchObject({
        kind: 'kidlisp',
        code: kidlispCode,
        source: `(wipe teal) ; ${label}`,
      });

      const painting = await client().readResource({ uri: `service://items/${paintingCode}` });
      const [text, blob] = painting.contents as {
        text?: string;
        blob?: string;
        mimeType: string;
      }[];
      expect(JSON.parse(text?.text as string)).toMatchObject({ kind: 'painting' });
      expect(blob?.mimeType).toBe('image/png');
      expect(Buffer.from(blob?.blob as string, 'base64').equals(png)).toBe(true);
    });

    it('answers a code nothing has with an error naming it', async () => {
      await expect(client().readResource({ uri: 'service://items/zzzzzz' })).rejects.toThrow(
        /zzzzzz/,
      );
    });

    it('completes code from the recent works', async () => {
      const { completion } = await client().complete({
        ref: { type: 'ref/resource', uri: 'service://items/{code}' },
        argument: { name: 'code', value: kidlispCode.slice(0, 2) },
      });
      expect(completion.values).toContain(kidlispCode);
      expect(completion.values.every((value) => value.startsWith(kidlispCode.slice(0, 2)))).toBe(
        true,
      );
    });

    it("completes remix-kidlisp's code the same way", async () => {
      const { completion } = await client().complete({
        ref: { type: 'ref/prompt', name: 'remix-kidlisp' },
        argument: { name: 'code', value: kidlispCode },
      });
      expect(completion.values).toEqual([kidlispCode]);
    });

    it('lists every word with its state in the KidLisp reference', async () => {
      const { contents } = await client().readResource({ uri: 'service://kidlisp-reference' });
      const text = (contents[0] as { text: string }).text;
      expect(text).toContain('## Every word and its state in this runtime');
      expect(text).toContain('`box` runs');
      expect(text).toContain('`cube` not drawn');
      expect(text).toContain('`beat` reads as 0');
    });

    it('remix-kidlisp loads the work and asks for a render, then a publish with remixOf', async () => {
      const prompt = await client().getPrompt({
        name: 'remix-kidlisp',
        arguments: { code: kidlispCode, idea: 'make it spin' },
      });
      const text = prompt.messages
        .map((message) => (message.content as { text: string }).text)
        .join('\n');
      expect(text).toContain(`(wipe teal) ; ${label}`);
      expect(text).toContain('make it spin');
      expect(text).toContain('render_kidlisp');
      expect(text).toContain(`remixOf: "${kidlispCode}"`);
      await expect(
        client().getPrompt({ name: 'remix-kidlisp', arguments: { code: 'zzzzzz', idea: 'x' } }),
      ).rejects.toThrow(/zzzzzz/);
    });
  });
}
