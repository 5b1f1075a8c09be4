import { AppError } from '../../app-error.js';
import { requireScope } from '../../auth/scopes.js';
import type { RequestContext } from '../../context.js';

/** Every publishing operation counts against its client's limit, whichever face it came through. */
export async function enforcePublishLimit(ctx: RequestContext): Promise<void> {
  const decision = await ctx.services.publishLimiter.hit(ctx.clientKey);
  if (!decision.allowed) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many publishes; try again in ${decision.retryAfterSeconds} seconds.`,
      {
        retryAfter: decision.retryAfterSeconds,
      },
    );
  }
}

/** A publish: the credentials may publish (a key needs the `publish` scope), within the limit. */
export async function admitPublish(ctx: RequestContext): Promise<void> {
  requireScope(ctx.viewer, 'publish', 'publish');
  await enforcePublishLimit(ctx);
}
