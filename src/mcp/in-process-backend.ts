import { apiInfo } from '../docs/api-info.js';
import type { RequestContext } from '../context.js';
import { toAppError } from '../http/failure.js';
import {
  previewKidlisp,
  previewKidlispInput,
  topKidlisp,
  topKidlispInput,
} from '../operations/kidlisp/index.js';
import {
  publishClock,
  publishClockInput,
  publishKidlisp,
  publishKidlispInput,
  publishPiece,
  publishPieceInput,
} from '../operations/publish/index.js';
import { parseInput } from '../operations/validation.js';
import type { AssistantBackend } from './backend.js';

/** The operations themselves, for one request's context (the service's own /mcp endpoint). */
export function inProcessBackend(ctx: RequestContext): AssistantBackend {
  const guarded = async <T>(work: () => Promise<T> | T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toAppError(error, ctx.services); // logs the unexpected, keeps internals out of the answer
    }
  };
  return {
    publishKidlisp: (input) =>
      guarded(() => publishKidlisp(ctx, parseInput(publishKidlispInput, input))),
    publishClock: (input) => guarded(() => publishClock(ctx, parseInput(publishClockInput, input))),
    publishPiece: (input) => guarded(() => publishPiece(ctx, parseInput(publishPieceInput, input))),
    previewKidlisp: (input) =>
      guarded(() => previewKidlisp(parseInput(previewKidlispInput, input))),
    apiInfo: () => guarded(() => apiInfo(ctx)),
    topKidlisp: (limit) => guarded(() => topKidlisp(ctx, parseInput(topKidlispInput, { limit }))),
  };
}
