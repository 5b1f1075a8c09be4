/**
 * Reads what `publish-gateway kidlisp render` is asked to draw: a program file, or a fixture in
 * the reference's shape ({source, width, height, frames, seed, epochMs?, stepMs?, events?}), with
 * command-line options taking precedence over the fixture's fields. Every mistake is one sentence.
 */
import type { RenderSpec, ReplayEvent } from './frames.js';

export const MAX_SIZE = 2048;
export const MAX_FRAMES = 100_000;
const MAX_SEED = 2 ** 32 - 1;

/** Option values as typed on the command line (strings), or undefined when not given. */
export interface RenderOverrides {
  width?: string | undefined;
  height?: string | undefined;
  frames?: string | undefined;
  seed?: string | undefined;
  stepMs?: string | undefined;
  epochMs?: string | undefined;
}

export type SpecResult = { ok: true; spec: RenderSpec } | { ok: false; message: string };

class SpecError extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A number from an option string (first) or a fixture field, checked against its rule. */
function field(
  name: string,
  option: string | undefined,
  fromFile: unknown,
  fallback: number,
  check: (n: number) => boolean,
  rule: string,
): number {
  const raw = option !== undefined ? Number(option.trim() === '' ? Number.NaN : option) : fromFile;
  if (raw === undefined) return fallback;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || !check(raw)) {
    const shown = option ?? JSON.stringify(fromFile);
    throw new SpecError(`${name} must be ${rule} (got ${shown})`);
  }
  return raw;
}

const integerIn = (low: number, high: number) => (n: number) =>
  Number.isInteger(n) && n >= low && n <= high;

const MAX_EVENTS = 10_000;

function readEvents(value: unknown): ReplayEvent[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SpecError('events must be a list');
  if (value.length > MAX_EVENTS) throw new SpecError(`events may hold at most ${MAX_EVENTS}`);
  return value.map((event, index) => {
    const where = `events[${index}]`;
    if (!isRecord(event)) throw new SpecError(`${where} must be an object`);
    const { frame, type, x, y, dx, dy, key } = event;
    if (!integerIn(0, Number.MAX_SAFE_INTEGER)(Number(frame)) || typeof frame !== 'number')
      throw new SpecError(`${where}.frame must be a whole number from 0`);
    if (type === 'keydown' || type === 'keyup') {
      if (typeof key !== 'string' || key.length === 0 || key.length > 32)
        throw new SpecError(`${where}.key must be a key name such as "Enter" or "ArrowLeft"`);
      return { frame, type, key };
    }
    if (type !== 'touch' && type !== 'draw' && type !== 'lift')
      throw new SpecError(`${where}.type must be "touch", "draw", "lift", "keydown" or "keyup"`);
    for (const [key, n] of Object.entries({ x, y, dx, dy })) {
      const optional = key === 'dx' || key === 'dy';
      if (optional && n === undefined) continue;
      if (typeof n !== 'number' || !Number.isFinite(n))
        throw new SpecError(`${where}.${key} must be a number`);
    }
    return {
      frame,
      type,
      x: x as number,
      y: y as number,
      ...(dx === undefined ? {} : { dx: dx as number }),
      ...(dy === undefined ? {} : { dy: dy as number }),
    };
  });
}

export function readRenderSpec(file: string, text: string, options: RenderOverrides): SpecResult {
  try {
    let fixture: Record<string, unknown> = {};
    let source = text;
    if (file.toLowerCase().endsWith('.json')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new SpecError(`${file} is not valid JSON (${(error as Error).message})`);
      }
      if (!isRecord(parsed) || typeof parsed.source !== 'string')
        throw new SpecError(`${file} must be a JSON object with a "source" string`);
      fixture = parsed;
      source = parsed.source;
    }
    const size = `a whole number from 1 to ${MAX_SIZE}`;
    const spec: RenderSpec = {
      source,
      width: field('width', options.width, fixture.width, 256, integerIn(1, MAX_SIZE), size),
      height: field('height', options.height, fixture.height, 256, integerIn(1, MAX_SIZE), size),
      frames: field(
        'frames',
        options.frames,
        fixture.frames,
        1,
        integerIn(1, MAX_FRAMES),
        `a whole number from 1 to ${MAX_FRAMES}`,
      ),
      seed: field(
        'seed',
        options.seed,
        fixture.seed,
        0,
        integerIn(0, MAX_SEED),
        `a whole number from 0 to ${MAX_SEED}`,
      ),
      stepMs: field(
        'step-ms',
        options.stepMs,
        fixture.stepMs,
        1000 / 60,
        (n) => n > 0,
        'a number above 0',
      ),
      epochMs: field(
        'epoch-ms',
        options.epochMs,
        fixture.epochMs,
        0,
        (n) => Math.abs(n) <= 8.64e15,
        'a time in ms within ±8.64e15',
      ),
      events: readEvents(fixture.events),
    };
    return { ok: true, spec };
  } catch (error) {
    if (error instanceof SpecError) return { ok: false, message: error.message };
    throw error;
  }
}
