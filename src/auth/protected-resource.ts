import type { Config } from '../config.js';

/** Where RFC 9728 puts a resource's metadata: this path, then the resource's own path. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export interface ProtectedResource {
  /** `PUBLIC_URL/mcp`: the audience a token for /mcp names (RFC 8707). */
  resource: string;
  /** The metadata's URL, named in every 401 of /mcp (`WWW-Authenticate: Bearer resource_metadata=...`). */
  metadataUrl: string;
  metadata: Record<string, unknown>;
}

/**
 * `/mcp` as an OAuth 2.1 protected resource (the MCP authorization specification, RFC 9728), when
 * AUTH_ISSUER is set: its authorization server is the issuer. Without an issuer: none.
 */
export function protectedResource(
  config: Pick<Config, 'publicUrl' | 'auth'>,
): ProtectedResource | undefined {
  if (!config.auth.issuer) return undefined;
  const resource = `${config.publicUrl}/mcp`;
  return {
    resource,
    metadataUrl: `${config.publicUrl}${PROTECTED_RESOURCE_PATH}/mcp`,
    metadata: {
      resource,
      authorization_servers: [config.auth.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid'],
      resource_name: 'publish-gateway MCP server',
      resource_documentation: `${config.publicUrl}/api`,
    },
  };
}

/** The challenge a 401 of /mcp carries, so an MCP client finds the authorization server. */
export const bearerChallenge = (resource: ProtectedResource) =>
  `Bearer error="invalid_token", resource_metadata="${resource.metadataUrl}"`;
