import type { RequestContext } from '../context.js';
import { toAppError } from '../http/failure.js';
import { getItem } from '../operations/items/get-item.js';
import { readItemFile } from '../operations/items/item-files.js';
import { loadCode } from '../operations/items/loaders.js';
import { publishedConnection } from '../operations/items/published-connection.js';
import { searchWorks } from '../operations/items/search-works.js';
import { previewKidlisp } from '../operations/kidlisp/preview-kidlisp.js';
import { renderKidlisp } from '../operations/kidlisp/render-kidlisp.js';
import { topKidlisp } from '../operations/kidlisp/top-kidlisp.js';
import { runOperation } from '../operations/operation.js';
import { publishClock, publishKidlisp, publishPiece } from '../operations/publish/index.js';
import { type AssistantBackend, RECENT_FOR_COMPLETION } from './backend.js';

/** The docs object the service serves at GET /api, handed in by the composition root. */
export type ApiInfoSource = () => Record<string, unknown>;

/** The operations themselves, for one request's context (the service's own /mcp endpoint). */
export function inProcessBackend(ctx: RequestContext, apiInfo: ApiInfoSource): AssistantBackend {
  const guarded = async <T>(work: () => Promise<T> | T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toAppError(error, ctx.services); // logs the unexpected, keeps internals out of the answer
    }
  };
  return {
    publishKidlisp: (input) => guarded(() => runOperation(publishKidlisp, ctx, input)),
    publishClock: (input) => guarded(() => runOperation(publishClock, ctx, input)),
    publishPiece: (input) => guarded(() => runOperation(publishPiece, ctx, input)),
    previewKidlisp: (input) => guarded(() => runOperation(previewKidlisp, ctx, input)),
    apiInfo: () => guarded(apiInfo),
    topKidlisp: (limit) => guarded(() => runOperation(topKidlisp, ctx, { limit })),
    getItem: (input) => guarded(() => runOperation(getItem, ctx, input)),
    searchWorks: (input) => guarded(() => runOperation(searchWorks, ctx, input)),
    renderKidlisp: (input) => guarded(() => runOperation(renderKidlisp, ctx, input)),
    recentAddresses: () =>
      guarded(async () => {
        const page = await runOperation(publishedConnection, ctx, { first: RECENT_FOR_COMPLETION });
        return page.edges.map((edge) => edge.node.address);
      }),
    paintingPng: (code) =>
      guarded(async () => {
        const painting = await loadCode(ctx, code, ['painting']);
        const file = painting && (await readItemFile(ctx, painting));
        return file ? file.body : null;
      }),
  };
}
