import type { Router } from 'express';
import type { z } from 'zod';
import type { RequestContext, Services } from '../context.js';
import {
  publishClock,
  publishClockInput,
  publishKidlisp,
  publishKidlispInput,
  publishPiece,
  publishPieceInput,
  trackMedia,
  trackMediaInput,
} from '../operations/publish/index.js';
import { parseInput } from '../operations/validation.js';
import { methodNotAllowed, operationRoute } from '../http/respond.js';

type Operation<S extends z.ZodType> = (
  ctx: RequestContext,
  input: z.output<S>,
) => Promise<{ cached: boolean }>;

export function mountPublishRoutes(router: Router, services: Services): void {
  /** 201 for new content, 200 for content that already existed (`cached`); track-media answers 200 both times. */
  const post = <S extends z.ZodType>(
    path: string,
    schema: S,
    operation: Operation<S>,
    statusOf: (cached: boolean) => number,
  ) => {
    router.post(
      path,
      operationRoute(services, async (ctx, req, res) => {
        const result = await operation(ctx, parseInput(schema, req.body));
        res.status(statusOf(result.cached)).json(result);
      }),
    );
    router.all(path, methodNotAllowed(['POST']));
  };
  const created = (cached: boolean) => (cached ? 200 : 201);
  post('/store-kidlisp', publishKidlispInput, publishKidlisp, created);
  post('/store-clock', publishClockInput, publishClock, created);
  post('/store-piece', publishPieceInput, publishPiece, created);
  post('/track-media', trackMediaInput, trackMedia, () => 200);
  post('/track-tape', trackMediaInput, trackMedia, () => 200);
}
