import {
  type CallToolResult,
  completable,
  McpServer,
  type PromptCallback,
  type ServerContext,
  type ToolCallback,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { isAppError } from '../app-error.js';
import {
  assistantPackage,
  assistantPrompts,
  assistantResources,
  assistantTools,
  type PromptName,
  type ToolEntry,
} from '../operations/assistant-catalog.js';
import { SERVICE_VERSION } from '../version.js';
import { type AssistantBackend, type Call, ServiceError } from './backend.js';
import { kidlispReference } from './content/kidlisp-reference.js';
import { EXAMPLE_COUNT, pieceExamplesMarkdown } from './content/piece-examples.js';
import { pieceTemplate } from './content/piece-template.js';
import { createKidlispPrompt, createPiecePrompt } from './content/prompts.js';
import { remixKidlispPrompt } from './content/remix-prompt.js';
import { wordStatesMarkdown } from './content/word-states.js';
import { completeCode, registerItemResources } from './item-resources.js';
import { renderResult } from './render-result.js';

export interface AssistantServerOptions {
  /** Told about failures that are not the service's own (bugs, unreachable service). */
  onUnexpectedError?: (error: unknown) => void;
  /**
   * Runs each tool call as one operation of the service's telemetry (its span and metrics),
   * handing it the backend to call: the one its span's children run in.
   */
  observeTool?: <R>(tool: string, call: (tools: AssistantBackend) => Promise<R>) => Promise<R>;
}

function succeeded(result: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
    structuredContent: result as Record<string, unknown>,
  };
}

/**
 * A tool error: the message and the service's machine code as text, with `isError`. No structured
 * content, because it would have to match the tool's `outputSchema` (the success shape) and MCP
 * clients (SDK 1.x, Inspector) reject a result whose structured content does not.
 */
function failed(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${message} (${code})` }], isError: true };
}

/**
 * One MCP server over a backend: the in-process operations at /mcp, or the service's REST API
 * in the stdio bin. Names, texts and schemas all come from the assistant catalog.
 */
export function createAssistantServer(
  backend: AssistantBackend,
  options: AssistantServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: assistantPackage.serverName, version: SERVICE_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );

  const run = async <R extends object>(
    work: () => Promise<R>,
    shape: (result: R) => CallToolResult = succeeded,
  ): Promise<CallToolResult> => {
    try {
      return shape(await work());
    } catch (error) {
      if (error instanceof ServiceError || isAppError(error))
        return failed(error.code, error.message);
      options.onUnexpectedError?.(error);
      return failed('INTERNAL', 'Something went wrong in the assistant server.');
    }
  };
  const callOf = (ctx: { mcpReq: { signal: AbortSignal } }): Call => ({
    signal: ctx.mcpReq.signal,
  });

  const about = (entry: ToolEntry) => ({
    title: entry.title,
    description: entry.description,
    annotations: {
      readOnlyHint: entry.readOnly,
      destructiveHint: false,
      idempotentHint: true, // the same source always gets the same code
      openWorldHint: !entry.readOnly,
    },
  });
  /**
   * One tool, named and described by its catalog entry. Each call site is type-checked against
   * its entry's input schema; only inside this generic helper can the SDK's conditional callback
   * type not be resolved, hence the one assertion.
   */
  const tool = <E extends ToolEntry, R extends object>(
    entry: E,
    handler: (args: z.output<E['inputSchema']>, call: Call, tools: AssistantBackend) => Promise<R>,
    shape?: (result: R) => CallToolResult,
  ) => {
    const observe = options.observeTool ?? ((_tool, call) => call(backend));
    const callback = (args: z.output<E['inputSchema']>, ctx: ServerContext) =>
      run(() => observe(entry.name, (tools) => handler(args, callOf(ctx), tools)), shape);
    return server.registerTool<E['outputSchema'], E['inputSchema']>(
      entry.name,
      { ...about(entry), inputSchema: entry.inputSchema, outputSchema: entry.outputSchema },
      callback as ToolCallback<E['inputSchema']>,
    );
  };
  tool(assistantTools.publish_piece, (args, call, tools) => tools.publishPiece(args, call));
  tool(assistantTools.publish_kidlisp, (args, call, tools) => tools.publishKidlisp(args, call));
  tool(assistantTools.publish_clock, (args, call, tools) => tools.publishClock(args, call));
  tool(assistantTools.get_api_info, (_args, call, tools) => tools.apiInfo(call));
  tool(assistantTools.preview_kidlisp, (args, call, tools) => tools.previewKidlisp(args, call));
  tool(assistantTools.get_item, (args, call, tools) => tools.getItem(args, call));
  tool(assistantTools.search_works, ({ query, ...rest }, call, tools) =>
    tools.searchWorks({ search: query, ...rest }, call),
  );
  tool(
    assistantTools.render_kidlisp,
    (args, call, tools) => tools.renderKidlisp(args, call),
    renderResult,
  );

  const resource = (
    entry: (typeof assistantResources)[keyof typeof assistantResources],
    read: (call: Call) => Promise<string> | string,
  ) =>
    server.registerResource(
      entry.name,
      entry.uri,
      { title: entry.title, description: entry.description, mimeType: entry.mimeType },
      async (uri, ctx) => ({
        contents: [{ uri: uri.href, mimeType: entry.mimeType, text: await read(callOf(ctx)) }],
      }),
    );
  resource(assistantResources.pieceTemplate, () => pieceTemplate());
  resource(
    assistantResources.kidlispReference,
    () => `${kidlispReference}\n${wordStatesMarkdown()}`,
  );
  resource(assistantResources.pieceExamples, async (call) =>
    pieceExamplesMarkdown(await backend.topKidlisp(EXAMPLE_COUNT, call)),
  );
  registerItemResources(server, backend);

  /** One prompt, named and described by its catalog entry; `text` writes the user message (same assertion as `tool`). */
  type PromptEntry = (typeof assistantPrompts)[PromptName];
  const prompt = <E extends PromptEntry>(
    entry: E,
    text: (args: z.output<E['argsSchema']>, call: Call) => string | Promise<string>,
  ) => {
    const callback = async (args: z.output<E['argsSchema']>, ctx: ServerContext) => ({
      description: entry.description,
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: await text(args, callOf(ctx)) },
        },
      ],
    });
    return server.registerPrompt<E['argsSchema']>(
      entry.name,
      { title: entry.title, description: entry.description, argsSchema: entry.argsSchema },
      callback as PromptCallback<E['argsSchema']>,
    );
  };
  prompt(assistantPrompts['create-piece'], createPiecePrompt);
  prompt(assistantPrompts['create-kidlisp'], createKidlispPrompt);
  const remix = assistantPrompts['remix-kidlisp'];
  // A copy per server: completable marks the schema it is given, once.
  const remixArgs = remix.argsSchema.extend({
    code: completable(remix.argsSchema.shape.code.clone(), completeCode(backend)),
  });
  prompt({ ...remix, argsSchema: remixArgs }, async (args, call) => {
    const work = await backend.getItem({ code: args.code.replace(/^\$/, '') }, call);
    if (work.kind !== 'kidlisp')
      throw new ServiceError(
        'INVALID_INPUT',
        `${args.code} is a ${work.kind}, not a KidLisp work.`,
      );
    return remixKidlispPrompt(work, args.idea);
  });
  return server;
}
