/**
 * The embeds family: `($code x y w h alpha)`, a bare `$code` and `(embed $code ...)` draw another
 * published program live into a rectangle. Each embed runs its own interpreter on its own screen,
 * loaded once per code; its report merges into the host's.
 */
import { EMBED_DEPTH } from '../embed-closure.js';
import type { FormState } from './compile.js';
import { compositePixels } from './pixels.js';
import type {
  EmbedLoader,
  FrameResult,
  RuntimeOptions,
  RuntimeReport,
  Surface,
  Tick,
} from './types.js';
import type { Value } from './value.js';

/** An embedded program as its host runs it (the interpreter, one level deeper). */
export interface EmbeddedProgram {
  idle(): Promise<void>;
  frame(tick: Tick, stepLimit?: number): FrameResult;
  readonly reportEntries: RuntimeReport;
}

interface EmbedState {
  status: 'loading' | 'ready' | 'missing';
  child?: EmbeddedProgram;
  surface?: Surface;
}

type NumberRange = 'x' | 'y' | 'width' | 'height' | 'byte';

/** What embeds need from the program that holds them. */
export interface EmbedHost {
  readonly options: RuntimeOptions;
  /** How deep this program is inside embeds (0 at the top) and the codes above it. */
  readonly depth: number;
  readonly ancestors: ReadonlySet<string>;
  screen(): Surface;
  now(): Tick;
  toNumber(value: Value, range: NumberRange): number;
  /** The steps left in this frame, at least 1. */
  stepsLeft(): number;
  charge(steps: number): void;
  tell(kind: 'unsupported' | 'unknown' | 'problem', entry: string): void;
  pixels(change: (block: ReturnType<Surface['getPixels']>) => void): void;
  /** A program of its own for an embed, one level deeper, on its own screen. */
  child(source: string, surface: Surface, ancestors: ReadonlySet<string>): EmbeddedProgram;
}

export class Embeds {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly sources = new Map<string, ReturnType<EmbedLoader>>();
  private readonly children = new Set<EmbeddedProgram>();

  constructor(private readonly host: EmbedHost) {}

  /** Resolves once every embed requested so far has loaded (or failed). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    for (const child of this.children) await child.idle();
  }

  /** Whether `code` may be drawn here; says why in the report when it may not. */
  allowed(code: string): boolean {
    const { options, ancestors, depth } = this.host;
    if (options.loadEmbed === undefined || options.createSurface === undefined) {
      this.host.tell('unsupported', `${code} (embeds are not available here)`);
      return false;
    }
    if (ancestors.has(code.slice(1))) {
      this.host.tell(
        'problem',
        `${code} embeds itself (through its embeds); that embed is not drawn`,
      );
      return false;
    }
    const limit = options.maxEmbedDepth ?? EMBED_DEPTH;
    if (depth >= limit) {
      this.host.tell('problem', `Embeds nest deeper than ${limit} levels at ${code}; not drawn`);
      return false;
    }
    return true;
  }

  /**
   * Draws one frame of `code` at the place its evaluated arguments give (`x y [w h [alpha]]`).
   * Returns a message when the embed used up the frame's step budget (the host ends the frame).
   */
  draw(code: string, values: readonly Value[], holder: FormState): string | undefined {
    const { width, height } = this.host.screen();
    const n = (index: number, range: NumberRange) => this.host.toNumber(values[index], range);
    let x = 0;
    let y = 0;
    let w = width;
    let h = height;
    let opacity = 1;
    if (values.length >= 1) x = n(0, 'x');
    if (values.length >= 2) y = n(1, 'y');
    if (values.length === 3) w = h = n(2, 'width');
    if (values.length >= 4) {
      w = n(2, 'width');
      h = n(3, 'height');
    }
    if (values.length >= 5) {
      const alpha = n(4, 'byte');
      opacity = Math.max(0, Math.min(1, alpha > 1 ? alpha / 255 : alpha));
    }
    if (values.length === 1 || values.length === 2) {
      w = width - x;
      h = height - y;
    }
    let state = holder.embed as EmbedState | undefined;
    if (state === undefined) {
      state = { status: 'loading' };
      holder.embed = state;
      // The embedded screen is never larger than the host's: more pixels could not be seen.
      const embedWidth = Math.max(1, Math.min(width, Math.round(Math.abs(w))));
      const embedHeight = Math.max(1, Math.min(height, Math.round(Math.abs(h))));
      this.start(code, state, embedWidth, embedHeight);
    }
    if (state.status !== 'ready' || state.child === undefined || state.surface === undefined)
      return undefined;
    const childSurface = state.surface;
    const child = state.child;
    const result = child.frame(this.host.now(), this.host.stepsLeft());
    this.host.charge(result.steps);
    for (const entry of child.reportEntries.unsupported) this.host.tell('unsupported', entry);
    for (const entry of child.reportEntries.unknown)
      this.host.tell('unknown', `${entry} (in ${code})`);
    for (const entry of child.reportEntries.problems)
      this.host.tell('problem', `In ${code}: ${entry}`);
    if (result.stopped) return `${code} used up the frame's step budget; the frame was cut short`;
    this.host.pixels((block) =>
      compositePixels(block, childSurface.getPixels(), x, y, w, h, opacity),
    );
    return undefined;
  }

  private start(code: string, state: EmbedState, width: number, height: number): void {
    const { loadEmbed, createSurface } = this.host.options;
    if (loadEmbed === undefined || createSurface === undefined) return;
    const bare = code.slice(1);
    const settle = (text: unknown) => {
      if (typeof text !== 'string') {
        state.status = 'missing';
        this.host.tell('problem', `${code} was not found; that embed is not drawn`);
        return;
      }
      const surface = createSurface(width, height);
      const ancestors = new Set(this.host.ancestors);
      ancestors.add(bare);
      state.surface = surface;
      state.child = this.host.child(text, surface, ancestors);
      this.children.add(state.child);
      state.status = 'ready';
    };
    const fail = (error: unknown) => {
      state.status = 'missing';
      this.host.tell(
        'problem',
        `${code} could not be loaded (${String(error)}); that embed is not drawn`,
      );
    };
    let source = this.sources.get(bare);
    if (source === undefined) {
      try {
        source = loadEmbed(bare);
      } catch (error) {
        source = Promise.reject(error);
      }
      this.sources.set(bare, source);
    }
    if (!(source instanceof Promise)) {
      settle(source);
      return;
    }
    const loading = source.then(settle, fail);
    this.pending.add(loading);
    void loading.finally(() => this.pending.delete(loading));
  }
}
