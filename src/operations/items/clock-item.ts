import type { RequestContext } from '../../context.js';
import { parseMelody } from '../../domain/melody/index.js';
import { isCodeShaped } from './published-item.js';

export type ParsedMelody = ReturnType<typeof parseMelody>;

export interface ClockItem {
  code: string;
  when: Date;
  source: string;
  melody: ParsedMelody;
}

/** A published clock melody with its parse; null for an unknown code (never a melody made of the code). */
export async function findClock(ctx: RequestContext, code: string): Promise<ClockItem | null> {
  if (!isCodeShaped(code)) return null;
  const record = await ctx.services.db.clocks.findOne({ code });
  if (!record) return null;
  return { code, when: record.when, source: record.source, melody: parseMelody(record.source) };
}
