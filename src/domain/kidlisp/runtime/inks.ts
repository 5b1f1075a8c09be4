/**
 * The color family: reading color arguments into an ink (`(ink ...)`, `wipe`, backdrops) and
 * turning an ink into the paint of one drawing call (patterns advance, fades get their line).
 */
import { fadeLine } from './paint.js';
import {
  type FadeSpec,
  type Pattern,
  parseFade,
  patternOf,
  RAINBOW,
  solidColor,
  ZEBRA,
} from './palette.js';
import type { SeededRandom } from './random.js';
import type { Paint, RGBA } from './types.js';

export type Ink =
  | { kind: 'solid'; color: RGBA }
  | { kind: 'erase'; alpha: number }
  | { kind: 'pattern'; pattern: Pattern; alpha: number }
  | { kind: 'fade'; fade: FadeSpec; alpha: number };

/** What inks need from the program: its numbers, its generator, its screen and its report. */
export interface InkContext {
  readonly random: SeededRandom;
  /** A value as a number (`?` drawn as a random byte). */
  toNumber(value: unknown): number;
  /** A fade's direction written as an expression, evaluated now. */
  angleOf(expression: string): number;
  screenSize(): { width: number; height: number };
  unknown(entry: string): void;
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.floor(value) || 0));
}

export class Inks {
  /** The ink `(ink ...)` set; until a program sets one, shapes draw in random inks (below). */
  private ink: Ink | undefined;
  /** The host's ink for the frame while the program has set none: random, drawn at frame start. */
  private frameInk: Ink = { kind: 'solid', color: [255, 255, 255, 255] };
  private rainbowIndex = 0;
  private zebraIndex = 0;

  constructor(private readonly context: InkContext) {}

  /** The host sets a random ink at the start of every frame until the program sets its own. */
  startFrame(): void {
    if (this.ink === undefined) this.frameInk = this.randomInk();
  }

  set(ink: Ink | undefined): void {
    if (ink !== undefined) this.ink = ink;
  }

  /** Reads color arguments: a name, `erase`, a pattern, a fade, or 1-4 numbers. Undefined if unreadable. */
  from(values: readonly unknown[]): Ink | undefined {
    const { random, toNumber, unknown } = this.context;
    const [first, second] = values;
    if (first === undefined) {
      return {
        kind: 'solid',
        color: [random.below(256), random.below(256), random.below(256), 255],
      };
    }
    if (typeof first === 'string') {
      const alpha = second === undefined ? 255 : clampByte(toNumber(second));
      if (first === 'erase') return { kind: 'erase', alpha };
      const pattern = patternOf(first);
      if (pattern !== undefined) return { kind: 'pattern', pattern, alpha };
      const fade = parseFade(first);
      if (fade !== undefined) {
        for (const name of fade.unknown) unknown(`${name} (in ${first})`);
        if (fade.stops.length === 0) return undefined;
        return { kind: 'fade', fade, alpha };
      }
      const solid = solidColor(first);
      if (solid !== undefined)
        return { kind: 'solid', color: [solid[0], solid[1], solid[2], alpha] };
      if (Number.isNaN(Number.parseFloat(first))) {
        unknown(`${first} (not a color)`);
        return undefined;
      }
    }
    const numbers = values.map((value) => clampByte(toNumber(value)));
    const [a = 0, b = 0, c = 0, d = 255] = numbers;
    if (numbers.length === 1) return { kind: 'solid', color: [a, a, a, 255] };
    if (numbers.length === 2) return { kind: 'solid', color: [a, a, a, b] };
    if (numbers.length === 3) return { kind: 'solid', color: [a, b, c, 255] };
    return { kind: 'solid', color: [a, b, c, d] };
  }

  /**
   * The paint for one drawing call: patterns advance once per call. With no ink set, `line`,
   * `box` and `circle` (`fresh`) each draw in a new random ink, as the reference does; other
   * words use the frame's random host ink.
   */
  paintOf(ink: Ink | undefined = this.ink, fresh = false): Paint {
    if (ink === undefined) return this.paintOf(fresh ? this.randomInk() : this.frameInk);
    switch (ink.kind) {
      case 'solid':
        return { kind: 'solid', color: ink.color };
      case 'erase':
        return { kind: 'erase', alpha: ink.alpha };
      case 'pattern': {
        const color = this.nextPattern(ink.pattern);
        return { kind: 'solid', color: [color[0], color[1], color[2], ink.alpha] };
      }
      case 'fade': {
        const { fade, alpha } = ink;
        const stops = fade.stops.map((stop): RGBA => {
          const color = typeof stop === 'string' ? this.nextPattern(stop) : stop;
          return [color[0], color[1], color[2], alpha];
        });
        let angle = fade.angle;
        if (fade.angleExpression !== undefined) angle = this.context.angleOf(fade.angleExpression);
        const { width, height } = this.context.screenSize();
        return { kind: 'fade', stops, ...fadeLine(angle, width, height) };
      }
    }
  }

  private nextPattern(pattern: Pattern): RGBA {
    if (pattern === 'rainbow') {
      const color = RAINBOW[this.rainbowIndex % RAINBOW.length] ?? RAINBOW[0];
      this.rainbowIndex++;
      return color ?? [255, 0, 0, 255];
    }
    const color = ZEBRA[this.zebraIndex % ZEBRA.length];
    this.zebraIndex++;
    return color ?? [0, 0, 0, 255];
  }

  private randomInk(): Ink {
    const { random } = this.context;
    const [r, g, b] = [random.below(256), random.below(256), random.below(256)];
    return { kind: 'solid', color: [r, g, b, 255] };
  }
}
