import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { isAppError } from '../app-error.js';
import { assistantResourceTemplates } from '../operations/assistant-catalog.js';
import { type AssistantBackend, type Call, ServiceError } from './backend.js';

const template = assistantResourceTemplates.items;

/** Completion asks have no request to cancel them; the backend's own timeout still applies. */
const uncancelled = (): Call => ({ signal: new AbortController().signal });

/** Completes a work's code from the addresses of the most recent works that start with `value`. */
export const completeCode =
  (backend: AssistantBackend) =>
  async (value: string | undefined): Promise<string[]> => {
    const recent = await backend.recentAddresses(uncancelled());
    return recent.filter((address) => address.startsWith(value ?? ''));
  };

/**
 * `service://items/{code}`: a published work's facts (its source included) as JSON text, and a
 * painting's PNG as a blob; `code` completes from the most recent works' addresses.
 */
export function registerItemResources(server: McpServer, backend: AssistantBackend): void {
  server.registerResource(
    template.name,
    new ResourceTemplate(template.uriTemplate, {
      list: undefined,
      complete: { code: completeCode(backend) },
    }),
    { title: template.title, description: template.description, mimeType: template.mimeType },
    async (uri, variables, ctx) => {
      const call: Call = { signal: ctx.mcpReq.signal };
      try {
        const code = decodeURIComponent(String(variables.code ?? ''));
        const facts = await backend.getItem({ code }, call);
        const text = {
          uri: uri.href,
          mimeType: template.mimeType,
          text: JSON.stringify(facts, null, 2),
        };
        const png = facts.kind === 'painting' ? await backend.paintingPng(facts.code, call) : null;
        return {
          contents: png
            ? [text, { uri: uri.href, mimeType: 'image/png', blob: png.toString('base64') }]
            : [text],
        };
      } catch (error) {
        // A removed work is no resource any more either; the message says it was removed.
        if (
          (error instanceof ServiceError || isAppError(error)) &&
          (error.code === 'ITEM_NOT_FOUND' || error.code === 'ITEM_REMOVED')
        )
          throw new ResourceNotFoundError(uri.href, `${error.message} (${error.code})`);
        if (error instanceof URIError)
          throw new ResourceNotFoundError(uri.href, `${uri.href} does not name a code.`);
        throw error;
      }
    },
  );
}
