import { z } from 'zod';
import { AppError } from '../../app-error.js';
import { perProcess, type RequestContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { WorkReportRecord } from '../../db/collections.js';
import { createMemoryRateLimiter } from '../../rate-limit/memory-store.js';
import { createMongoRateLimiter } from '../../rate-limit/mongo-store.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { Item } from '../items/item.js';
import { workReports } from './store.js';

/** Why a visitor reports a work: the form's choices, in its order. */
export const REPORT_REASONS = {
  spam: 'Spam or advertising',
  abuse: 'Abusive, hateful or harassing',
  illegal: 'Illegal content, or it infringes someone’s rights',
  other: 'Something else',
} as const;

export type ReportReason = keyof typeof REPORT_REASONS;

export const REPORT_DETAILS_MAX = 2_000;
/** Reports one client may send per window, on every instance when RATE_LIMIT_STORE is mongo. */
export const REPORTS_PER_WINDOW = 5;
export const REPORT_WINDOW_SECONDS = 600;

export const reportInput = z.object({
  reason: z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]], {
    error: 'Choose a reason.',
  }),
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX, `The details are longer than ${REPORT_DETAILS_MAX} characters.`)
    .optional()
    .transform((text) => (text ? text : undefined)),
});

const reportLimiter = perProcess((services): RateLimiter => {
  const policy = { limit: REPORTS_PER_WINDOW, windowSeconds: REPORT_WINDOW_SECONDS };
  return services.config.rateLimit.store === 'mongo'
    ? createMongoRateLimiter(policy, services.db.rateLimits)
    : createMemoryRateLimiter(policy);
});

/** Stores a visitor's report of `item`; RATE_LIMITED past REPORTS_PER_WINDOW per client. */
export async function fileReport(
  ctx: RequestContext,
  item: Item,
  input: z.output<typeof reportInput>,
): Promise<void> {
  const decision = await reportLimiter(ctx.services).hit(`report:${ctx.clientKey}`);
  if (!decision.allowed)
    throw new AppError(
      'RATE_LIMITED',
      `Too many reports; try again in ${decision.retryAfterSeconds} seconds.`,
      { retryAfter: decision.retryAfterSeconds },
    );
  await workReports(ctx.services.db).insertOne({
    address: item.address,
    kind: item.kind,
    reason: input.reason,
    ...(input.details ? { details: input.details } : {}),
    client: ctx.clientKey,
    when: new Date(),
    state: 'open',
  });
}

/** The open reports of one work, for operators (`work reports`). */
export interface ReportedWork {
  address: string;
  kind: WorkReportRecord['kind'];
  count: number;
  latest: Date;
  reasons: Record<string, number>;
  details: string[];
}

/** Every work with open reports, the most reported first (then the latest report first). */
export async function openReports(db: Database): Promise<ReportedWork[]> {
  const byWork = new Map<string, ReportedWork>();
  for await (const report of workReports(db).find({ state: 'open' })) {
    const work = byWork.get(report.address) ?? {
      address: report.address,
      kind: report.kind,
      count: 0,
      latest: report.when,
      reasons: {},
      details: [],
    };
    work.count += 1;
    if (report.when > work.latest) work.latest = report.when;
    work.reasons[report.reason] = (work.reasons[report.reason] ?? 0) + 1;
    if (report.details) work.details.push(report.details);
    byWork.set(report.address, work);
  }
  return [...byWork.values()].sort(
    (a, b) => b.count - a.count || b.latest.getTime() - a.latest.getTime(),
  );
}
