import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import { bearerChallenge, protectedResource } from '../auth/protected-resource.js';
import { observeIn, type RequestContext, type Services } from '../context.js';
import { MAX_BODY_BYTES } from '../http/body-limit.js';
import { operationRoute } from '../http/respond.js';
import type { Logger } from '../logger.js';
import { type ApiInfoSource, inProcessBackend } from './in-process-backend.js';
import { createAssistantServer } from './server.js';
import { sendWebResponse, toWebRequest } from './web-bridge.js';

/** The request's context rides to the per-request server factory in the pass-through `authInfo`. */
const contextKey = 'requestContext';

function authInfoFor(ctx: RequestContext, authorization: string | undefined): AuthInfo {
  return {
    token: authorization?.replace(/^Bearer\s+/i, '') ?? '',
    clientId: ctx.viewer?.account ?? 'anonymous',
    scopes: [],
    extra: { [contextKey]: ctx },
  };
}

function contextOf(authInfo: AuthInfo | undefined): RequestContext {
  const ctx = authInfo?.extra?.[contextKey] as RequestContext | undefined;
  if (!ctx) throw new Error('MCP request reached the server factory without a request context');
  return ctx;
}

/**
 * `/mcp`: the assistant tools over Streamable HTTP (stateless), calling the operations in-process.
 * The bearer token is checked before any MCP processing: an invalid one answers 401 like REST.
 * Tool failures need no `onUnexpectedError` here: the in-process backend turns every failure
 * into an AppError (logging the unexpected ones) before the server sees it.
 */
export function createMcpRoute(services: Services, apiInfo: ApiInfoSource): RequestHandler {
  // The tool names are the catalog's: a bounded label. The span follows the MCP conventions.
  const serverFor = (ctx: RequestContext) => {
    const backend = inProcessBackend(ctx, apiInfo);
    return createAssistantServer(backend, {
      observeTool: (tool, call) =>
        observeIn(
          ctx,
          {
            face: 'mcp',
            name: tool,
            span: `tools/call ${tool}`,
            attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool },
          },
          (inner) => call(inner === ctx ? backend : inProcessBackend(inner, apiInfo)),
        ),
    });
  };
  const handlerLoggingTo = (logger: Logger) =>
    createMcpHandler(({ authInfo }) => serverFor(contextOf(authInfo)), {
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (error) => logger.warn({ err: error }, 'mcp request rejected'),
    });
  const handler = handlerLoggingTo(services.logger);

  // With AUTH_ISSUER, /mcp is an OAuth protected resource: a JWT must be for it (or AUTH_AUDIENCE),
  // and a 401 names the metadata that leads an MCP client to the issuer (RFC 9728).
  const resource = protectedResource(services.config);
  const auth = resource
    ? {
        resource: resource.resource,
        challenge: (error: { status: number }): Record<string, string> =>
          error.status === 401 ? { 'WWW-Authenticate': bearerChallenge(resource) } : {},
      }
    : {};
  return operationRoute(
    services,
    async (ctx, req, res) => {
      const aborted = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      const authInfo = authInfoFor(ctx, req.headers.authorization);
      // A traced request's rejection is logged with its trace: its own handler says it.
      const handling = ctx.services.trace ? handlerLoggingTo(ctx.services.logger) : handler;
      await sendWebResponse(
        res,
        await handling.fetch(toWebRequest(req, aborted.signal), { authInfo }),
      );
    },
    auth,
  );
}
