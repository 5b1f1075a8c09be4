import type { RequestHandler } from 'express';
import { AppError } from '../app-error.js';
import type { Config } from '../config.js';
import { sendError } from '../http/respond.js';

/** Names every loopback client uses; a browser on one of them is on this machine. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** What the Streamable HTTP transport sends and reads, for browser-based MCP clients. */
export const MCP_CORS = {
  methods: 'GET, POST, DELETE, OPTIONS',
  requestHeaders:
    'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  exposedHeaders: 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
  maxAgeSeconds: 86_400,
} as const;

const hostnameOf = (host: string): string => {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return '';
  }
};

const originOf = (text: string): string | undefined => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

export interface McpOriginPolicy {
  originAllowed(origin: string): boolean;
  hostAllowed(host: string): boolean;
}

/**
 * Who may reach /mcp (the MCP specification's defence against DNS rebinding): any request
 * without `Origin` (every non-browser client); from a browser, the public URL's origin, any
 * loopback origin, and MCP_ALLOWED_ORIGINS. `Host` must name loopback or the public URL's host,
 * so a reverse proxy on this machine keeps working and a rebound name does not.
 */
export function mcpOriginPolicy(
  config: Pick<Config, 'publicUrl' | 'mcpAllowedOrigins'>,
): McpOriginPolicy {
  const publicUrl = new URL(config.publicUrl);
  const origins = new Set([publicUrl.origin, ...config.mcpAllowedOrigins]);
  const hostnames = new Set([...LOOPBACK_HOSTNAMES, publicUrl.hostname.toLowerCase()]);
  return {
    originAllowed(origin) {
      const normalised = originOf(origin);
      if (!normalised) return false;
      return origins.has(normalised) || LOOPBACK_HOSTNAMES.has(new URL(normalised).hostname);
    },
    hostAllowed: (host) => hostnames.has(hostnameOf(host)),
  };
}

/**
 * Runs before anything else at /mcp: a foreign `Host` or a disallowed `Origin` answers 403 in the
 * error shape and nothing runs; an allowed origin gets the CORS headers, and its preflight 204.
 */
export function mcpOriginGuard(policy: McpOriginPolicy): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host;
    if (host !== undefined && !policy.hostAllowed(host)) {
      sendError(
        res,
        new AppError('HOST_NOT_ALLOWED', `/mcp does not answer for the host ${host}.`),
      );
      return;
    }
    const origin = req.headers.origin;
    res.vary('Origin');
    if (origin !== undefined) {
      if (!policy.originAllowed(origin)) {
        sendError(
          res,
          new AppError(
            'ORIGIN_NOT_ALLOWED',
            `/mcp does not accept requests from the origin ${origin}; the operator can allow it with MCP_ALLOWED_ORIGINS.`,
          ),
        );
        return;
      }
      res.set('Access-Control-Allow-Origin', origin);
      res.set('Access-Control-Expose-Headers', MCP_CORS.exposedHeaders);
    }
    if (req.method === 'OPTIONS') {
      res.set('Allow', MCP_CORS.methods);
      if (origin !== undefined) {
        res.set('Access-Control-Allow-Methods', MCP_CORS.methods);
        res.set('Access-Control-Allow-Headers', MCP_CORS.requestHeaders);
        res.set('Access-Control-Max-Age', String(MCP_CORS.maxAgeSeconds));
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
