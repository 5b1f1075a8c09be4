import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { isAppError } from '../errors.js';
import {
  assistantPackage,
  assistantPrompts,
  assistantResources,
  assistantTools,
  type ToolEntry,
} from '../resolvers/assistant-catalog.js';
import { SERVICE_VERSION } from '../version.js';
import { ServiceError, type AssistantBackend, type Call } from './backend.js';
import { kidlispReference } from './content/kidlisp-reference.js';
import { EXAMPLE_COUNT, pieceExamplesMarkdown } from './content/piece-examples.js';
import { pieceTemplate } from './content/piece-template.js';
import { createKidlispPrompt, createPiecePrompt } from './content/prompts.js';

export interface AssistantServerOptions {
  /** Told about failures that are not the service's own (bugs, unreachable service). */
  onUnexpectedError?: (error: unknown) => void;
}

function succeeded(result: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
}

/** A tool error with the service's machine code both in the text and as structured content. */
function failed(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${message} (${code})` }], structuredContent: { code, message }, isError: true };
}

/**
 * One MCP server over a backend: the in-process operations at /mcp, or the service's REST API
 * in the stdio bin. Names, texts and schemas all come from the assistant catalog.
 */
export function createAssistantServer(backend: AssistantBackend, options: AssistantServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: assistantPackage.serverName, version: SERVICE_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );

  const run = async (work: () => Promise<object>): Promise<CallToolResult> => {
    try {
      return succeeded(await work());
    } catch (error) {
      if (error instanceof ServiceError || isAppError(error)) return failed(error.code, error.message);
      options.onUnexpectedError?.(error);
      return failed('INTERNAL', 'Something went wrong in the assistant server.');
    }
  };
  const callOf = (ctx: { mcpReq: { signal: AbortSignal } }): Call => ({ signal: ctx.mcpReq.signal });

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
  const { publish_piece, publish_kidlisp, publish_clock, get_api_info, preview_kidlisp } = assistantTools;

  server.registerTool(
    'publish_piece',
    { ...about(publish_piece), inputSchema: publish_piece.inputSchema, outputSchema: publish_piece.outputSchema },
    (args, ctx) => run(() => backend.publishPiece(args, callOf(ctx))),
  );
  server.registerTool(
    'publish_kidlisp',
    { ...about(publish_kidlisp), inputSchema: publish_kidlisp.inputSchema, outputSchema: publish_kidlisp.outputSchema },
    (args, ctx) => run(() => backend.publishKidlisp(args, callOf(ctx))),
  );
  server.registerTool(
    'publish_clock',
    { ...about(publish_clock), inputSchema: publish_clock.inputSchema, outputSchema: publish_clock.outputSchema },
    (args, ctx) => run(() => backend.publishClock(args, callOf(ctx))),
  );
  server.registerTool(
    'get_api_info',
    { ...about(get_api_info), inputSchema: get_api_info.inputSchema, outputSchema: get_api_info.outputSchema },
    (_args, ctx) => run(() => backend.apiInfo(callOf(ctx))),
  );
  server.registerTool(
    'preview_kidlisp',
    { ...about(preview_kidlisp), inputSchema: preview_kidlisp.inputSchema, outputSchema: preview_kidlisp.outputSchema },
    (args, ctx) => run(() => backend.previewKidlisp(args, callOf(ctx))),
  );

  const resource = (entry: (typeof assistantResources)[keyof typeof assistantResources], read: (call: Call) => Promise<string> | string) =>
    server.registerResource(
      entry.name,
      entry.uri,
      { title: entry.title, description: entry.description, mimeType: entry.mimeType },
      async (uri, ctx) => ({ contents: [{ uri: uri.href, mimeType: entry.mimeType, text: await read(callOf(ctx)) }] }),
    );
  resource(assistantResources.pieceTemplate, () => pieceTemplate());
  resource(assistantResources.kidlispReference, () => kidlispReference);
  resource(assistantResources.pieceExamples, async (call) => pieceExamplesMarkdown(await backend.topKidlisp(EXAMPLE_COUNT, call)));

  const userMessage = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
  const piecePrompt = assistantPrompts['create-piece'];
  server.registerPrompt(
    piecePrompt.name,
    { title: piecePrompt.title, description: piecePrompt.description, argsSchema: piecePrompt.argsSchema },
    (args) => ({ description: piecePrompt.description, ...userMessage(createPiecePrompt(args)) }),
  );
  const kidlispPrompt = assistantPrompts['create-kidlisp'];
  server.registerPrompt(
    kidlispPrompt.name,
    { title: kidlispPrompt.title, description: kidlispPrompt.description, argsSchema: kidlispPrompt.argsSchema },
    (args) => ({ description: kidlispPrompt.description, ...userMessage(createKidlispPrompt(args)) }),
  );
  return server;
}
