import { isBuiltin, LIVE_INPUT_VALUES, missingNameHint, REPEAT_LIMIT } from '../builtins.js';
import { isColorWord, isFadeWord } from '../colors.js';
import { drawPicture, type Placement } from '../raster/stamp.js';
import { isEmbedCode, isIdentifier, isPaintingCode, withoutColonParameter } from '../words.js';
import { type BufferedSurface, bufferedSurface } from './buffered-surface.js';
import { drawChaos } from './chaos-art.js';
import {
  type CompiledProgram,
  compileProgram,
  compileWord,
  type FormState,
  type InfixExpression,
  type ListNode,
  type Node,
} from './compile.js';
import { DrawView, viewSurface } from './draw-view.js';
import { Embeds } from './embeds.js';
import { type Ink, Inks } from './inks.js';
import { LIVE_VALUES_READ, PointerState } from './input.js';
import { Layers } from './layers.js';
import { arithmetic } from './math.js';
import { withReason } from './meaningless-words.js';
import { Paintings } from './paintings.js';
import { SeededRandom } from './random.js';
import { ScrollState } from './scroll-state.js';
import { boxBounds, type Mode, paintBox, takeMode } from './shape-modes.js';
import { SoundState } from './sound.js';
import type {
  Area,
  FrameResult,
  Paint,
  PixelBlock,
  RuntimeOptions,
  RuntimeReport,
  Surface,
  Tick,
} from './types.js';
import { RANDOM, type Value } from './value.js';
import { withinArea } from './within-area.js';

/** A built-in form; it gets its arguments unevaluated and decides what to evaluate (./library.ts). */
export type Builtin = (rt: Interpreter, list: ListNode, scope: Scope, statement: boolean) => Value;

export type Builtins = ReadonlyMap<string, Builtin>;

const DEFAULT_STEP_LIMIT = 100_000;
const DEFAULT_MAX_DEPTH = 128;
const DEFAULT_FPS = 60;
/** Timers faster than this run at most once a frame at 60 fps. */
const SHORTEST_PERIOD_MS = 1000 / 60;
/** One work unit per this many pixels touched by a whole-screen pixel operation. */
const PIXELS_PER_STEP = 64;
const TEXT_SIZE = 10;

type RandomRange = 'x' | 'y' | 'width' | 'height' | 'radius' | 'byte';

interface LaterFunction {
  params: string[];
  body: Node[];
}

/** Thrown to end a frame early; caught in `frame`, never seen by the caller. */
class StopFrame extends Error {}

class Scope {
  readonly vars = new Map<string, Value>();
  constructor(readonly parent?: Scope) {}

  find(name: string): Scope | undefined {
    for (let scope: Scope | undefined = this; scope !== undefined; scope = scope.parent) {
      if (scope.vars.has(name)) return scope;
    }
    return undefined;
  }
}

/** Words that only name a value; everything else in `BUILTINS` is a procedure. */
const VALUE_WORDS = new Set(['w', 'width', 'h', 'height', 'frame', 'f', 'yes', 'no']);
/** Values the language has that this runtime cannot know (beat detection, parameters): they read as 0. */
const UNSUPPORTED_VALUES: ReadonlySet<string> = new Set(
  LIVE_INPUT_VALUES.filter((name) => !LIVE_VALUES_READ.has(name)),
);

function truthy(value: Value): boolean {
  return (
    value !== undefined && value !== false && value !== 0 && value !== '' && !Number.isNaN(value)
  );
}

/** A color channel as the reference keeps it: floored, then held to 0..255 (NaN is 0). */
/** The KidLisp interpreter for one program on one surface. Build it with `createKidlispRuntime`. */
export class Interpreter {
  private readonly surface: BufferedSurface;
  private readonly random: SeededRandom;
  private readonly program: CompiledProgram;
  private readonly stepLimit: number;
  private readonly maxDepth: number;
  private readonly options: RuntimeOptions;

  private readonly globals = new Scope();
  private readonly defs = new Map<string, Value>();
  private readonly functions = new Map<string, LaterFunction>();
  private readonly report: RuntimeReport = { unsupported: [], unknown: [], problems: [] };
  private readonly atomStates = new WeakMap<Node, FormState>();
  /** The programs this one embeds (embeds.ts). */
  private readonly embeds: Embeds;
  /** `bake`/`burn` layers (layers.ts) and `#code` paintings (paintings.ts). */
  private readonly layers: Layers;
  private readonly paintings: Paintings;

  /** The ink `(ink ...)` set and the patterns' places (inks.ts). */
  private readonly inks: Inks;
  private defaultOutline = 0;
  /** `scroll`'s direction and carried fractions (transform-words.ts). */
  readonly scrollState = new ScrollState();
  /** Melodies, voices and held tones (sound.ts, sound-words.ts). */
  readonly sound: SoundState;
  /** `pan` and `mask` (draw-view.ts). */
  readonly view = new DrawView();
  private tick: Tick = { frame: 0, ms: 0 };
  private steps = 0;
  private depth = 0;
  private started = false;
  private reportChanged = false;
  private targetFps = DEFAULT_FPS;

  /** The program's text as given (chaos mode draws from its letters). */
  private readonly source: string;

  constructor(
    source: string,
    options: RuntimeOptions,
    private readonly builtins: Builtins,
    embedDepth = 0,
    ancestors: ReadonlySet<string> = new Set(),
  ) {
    this.options = options;
    this.layers = new Layers(options.surface, options.createSurface);
    this.surface = viewSurface(bufferedSurface(this.layers.surface), this.view);
    this.sound = new SoundState(options.sound, (problem) => this.problem(problem));
    this.paintings = new Paintings(options.loadPainting, (kind, entry) => this.tell(kind, entry));
    this.random = new SeededRandom(options.seed ?? 1);
    this.embeds = new Embeds({
      options,
      depth: embedDepth,
      ancestors,
      screen: () => this.surface,
      now: () => this.tick,
      toNumber: (value, range) => this.num(value, range),
      stepsLeft: () => Math.max(1, this.limit - this.steps),
      charge: (steps) => this.charge(steps),
      tell: (kind, entry) => this.tell(kind, entry),
      pixels: (change) => this.pixels(change, false),
      child: (text, surface, above) =>
        new Interpreter(
          text,
          { ...options, surface, opaqueStart: false, seed: this.random.integer(0, 2 ** 31) },
          builtins,
          embedDepth + 1,
          above,
        ),
    });
    this.inks = new Inks({
      random: this.random,
      toNumber: (value) => this.num(value as Value),
      angleOf: (expression) => this.num(this.evaluate(compileWord(expression), this.globals)),
      screenSize: () => this.surface,
      unknown: (entry) => this.unknown(entry),
    });
    this.stepLimit = options.stepLimit ?? DEFAULT_STEP_LIMIT;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    let program: CompiledProgram;
    this.source = typeof source === 'string' ? source : String(source);
    try {
      program = compileProgram(this.source);
    } catch (error) {
      program = {
        backdrop: [],
        statements: [],
        chaos: false,
        discarded: `The program could not be read (${String(error)})`,
      };
    }
    this.program = program;
    if (program.discarded !== undefined) this.problem(program.discarded);
    if (program.autoClosed !== undefined) this.problem(program.autoClosed);
    this.hoistLater(program.statements);
  }

  /** The report so far; copies, so the caller may keep them. */
  getReport(): RuntimeReport {
    return {
      unsupported: [...this.report.unsupported],
      unknown: [...this.report.unknown],
      problems: [...this.report.problems],
    };
  }

  /** Frames per second the program asked for with `(fps n)`. */
  get fps(): number {
    return this.targetFps;
  }

  /** Resolves once every embed and painting requested so far has loaded (or failed). */
  async idle(): Promise<void> {
    await Promise.all([this.embeds.idle(), this.paintings.idle()]);
  }

  /** The pen and the program's `tap`/`draw`/`lift` handlers; events wait for the next frame. */
  readonly pointer = new PointerState();

  /** Draws one frame. Never throws: whatever goes wrong ends the frame and lands in the report. */
  frame(tick: Tick, stepLimit = this.stepLimit): FrameResult {
    this.tick = { frame: Number(tick.frame) || 0, ms: Number(tick.ms) || 0 };
    this.steps = 0;
    this.depth = 0;
    let stopped = false;
    const limit = Math.min(stepLimit, this.stepLimit);
    try {
      if (this.program.discarded === undefined) this.run(limit);
    } catch (error) {
      stopped = true;
      if (error instanceof StopFrame) this.problem(error.message);
      else
        this.problem(
          `A frame failed inside the runtime (${String(error)}); drawing went on with the next frame`,
        );
    }
    try {
      this.surface.flush();
      this.layers.present();
    } catch (error) {
      stopped = true;
      this.problem(`The screen could not be updated (${String(error)})`);
    }
    // Entries that arrived between frames (a painting or embed that failed to load) count too.
    const reportChanged = this.reportChanged;
    this.reportChanged = false;
    return { steps: this.steps, stopped, reportChanged };
  }

  private limit = DEFAULT_STEP_LIMIT;

  private run(limit: number): void {
    this.limit = limit;
    this.layers.startFrame();
    if (!this.started) {
      this.started = true;
      if (this.options.opaqueStart !== false) this.wipe({ kind: 'solid', color: [0, 0, 0, 255] });
      this.paintBackdrop();
    }
    this.inks.startFrame();
    this.sound.startFrame(this.clockMs());
    if (this.program.chaos) {
      drawChaos(this, this.source, this.tick.frame);
      return;
    }
    this.pointer.deliver((handler) => this.runBody(handler.items, 1, this.globals));
    for (const statement of this.program.statements) this.exec(statement, this.globals);
  }

  // ---- report -------------------------------------------------------------------------------

  private note(list: string[], entry: string): void {
    if (list.includes(entry) || list.length >= 50) return;
    list.push(entry);
    this.reportChanged = true;
  }

  private unsupported(name: string): void {
    this.note(this.report.unsupported, name);
  }

  private unknown(name: string): void {
    this.note(this.report.unknown, name);
  }

  private problem(message: string): void {
    this.note(this.report.problems, message);
  }

  // ---- budget -------------------------------------------------------------------------------

  private charge(units: number): void {
    this.steps += units;
    if (this.steps > this.limit) {
      throw new StopFrame(
        `A frame needed more than ${this.limit.toLocaleString('en-US')} steps and was cut short (the rest of the program did not draw that frame)`,
      );
    }
  }

  private chargePixels(): void {
    this.charge(Math.ceil((this.surface.width * this.surface.height) / PIXELS_PER_STEP));
  }

  // ---- evaluation ---------------------------------------------------------------------------

  /** Statement position: a bare procedure name is called with no arguments (`line`, `$code`). */
  private exec(node: Node, scope: Scope): Value {
    if (node.t === 'word') {
      const name = withoutColonParameter(node.name);
      if (isEmbedCode(name)) {
        this.charge(1);
        return this.embed(name, [], node, scope);
      }
      // A bare #code stamps the painting (painting-words.ts).
      if (isPaintingCode(name)) return this.call(asStamp([node], 0, 0), scope, true);
      if (
        !scope.find(name) &&
        ((this.builtins.has(name) && !VALUE_WORDS.has(name)) || this.functions.has(name))
      ) {
        return this.call({ t: 'list', items: [node], line: 0, column: 0 }, scope, true);
      }
    }
    if (node.t === 'list') return this.call(node, scope, true);
    if (node.t === 'word' && !VALUE_WORDS.has(node.name) && !this.isDefined(node.name, scope))
      this.notDrawn(node.name);
    return this.evaluate(node, scope);
  }

  private evaluate(node: Node, scope: Scope): Value {
    this.charge(1);
    switch (node.t) {
      case 'num':
      case 'str':
        return node.value;
      case 'random':
        return RANDOM;
      case 'timing':
        return node.text;
      case 'neg':
        return -this.num(this.lookup(node.name, scope));
      case 'infix':
        return this.infix(node.expression, scope);
      case 'trailing':
        return arithmetic(node.op, [this.num(this.call(node.left, scope, false)), node.right]);
      case 'fade':
        // The direction is evaluated where the fade is used (each frame, each loop turn).
        return `${node.colors}${this.num(this.evaluate(node.angle, scope))}`;
      case 'word':
        return this.lookup(node.name, scope);
      case 'list':
        return this.call(node, scope, false);
    }
  }

  private infix(expression: InfixExpression, scope: Scope): number {
    if (expression.kind === 'number') return expression.value;
    if (expression.kind === 'name') return this.num(this.lookup(expression.name, scope));
    const left = this.infix(expression.left, scope);
    const right = this.infix(expression.right, scope);
    return arithmetic(expression.op, [left, right]);
  }

  /** A bare word's value: loop and `later` variables, then built-in values, then `def`s. */
  private lookup(name: string, scope: Scope): Value {
    const local = scope.find(name);
    if (local !== undefined && local !== this.globals) return local.vars.get(name);
    switch (name) {
      case 'w':
      case 'width':
        return this.surface.width;
      case 'h':
      case 'height':
        return this.surface.height;
      case 'frame':
      case 'f':
        return this.tick.frame;
      case 'fps':
        return this.targetFps;
      case 'yes':
        return true;
      case 'no':
        return false;
      case 'clock':
        return this.clockMs();
      case 'penx':
        return this.pointer.pen.x;
      case 'peny':
        return this.pointer.pen.y;
      case 'down':
        return this.pointer.pen.down ? 1 : 0;
      case 'dx':
        return this.pointer.delta.x;
      case 'dy':
        return this.pointer.delta.y;
      case 'mic':
        return this.sound.microphone();
      case 'amp':
        // The reference's `amp` runs 0..10.
        return this.sound.microphone() * 10;
      case 'amplitude':
        return this.sound.level();
      case 'speaker':
        return this.sound.running();
    }
    if (this.defs.has(name)) return this.defs.get(name);
    if (UNSUPPORTED_VALUES.has(name)) {
      this.unsupported(name);
      return 0;
    }
    // An argument that names a built-in this runtime lacks: the reference would call it.
    if (isBuiltin(name) && !this.builtins.has(name)) this.unsupported(withReason(name));
    // Anything else is a symbol: a color, a mode, a code, a word for `write`.
    return name;
  }

  private num(value: Value, range: RandomRange = 'byte'): number {
    if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
    if (value === RANDOM) return this.randomIn(range);
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string') {
      const parsed = Number.parseFloat(value);
      return Number.isFinite(parsed) ? parsed : 0;
    }
    return 0;
  }

  /** A missing or `?` argument, drawn in the reference's ranges (its `box`/`circle` defaults). */
  private randomIn(range: RandomRange): number {
    const { width, height } = this.surface;
    switch (range) {
      case 'x':
        return this.random.below(width);
      case 'y':
        return this.random.below(height);
      case 'width':
        return this.random.below(width / 4) + 10;
      case 'height':
        return this.random.below(height / 4) + 10;
      case 'radius':
        return this.random.below(Math.min(width, height) / 8) + 5;
      case 'byte':
        return this.random.below(256);
    }
  }

  /** Evaluates every argument after the head. */
  private args(list: ListNode, scope: Scope): Value[] {
    const values: Value[] = [];
    for (let i = 1; i < list.items.length; i++) {
      const item = list.items[i];
      if (item !== undefined) values.push(this.evaluate(item, scope));
    }
    return values;
  }

  /** Runs forms as statements and returns the last value. */
  private body(nodes: readonly Node[], from: number, scope: Scope): Value {
    let last: Value;
    for (let i = from; i < nodes.length; i++) {
      const node = nodes[i];
      if (node !== undefined) last = this.exec(node, scope);
    }
    return last;
  }

  private pickOne(node: Node | undefined, scope: Scope, statement: boolean): Value {
    if (node === undefined) return undefined;
    return statement ? this.exec(node, scope) : this.evaluate(node, scope);
  }

  /** State for a bare word that acts as a form (a top-level `$code`). */
  private atomState(node: Node): FormState {
    let state = this.atomStates.get(node);
    if (state === undefined) {
      state = {};
      this.atomStates.set(node, state);
    }
    return state;
  }

  private stateOf(list: ListNode): FormState {
    list.state ??= {};
    return list.state;
  }

  call(list: ListNode, scope: Scope, statement: boolean): Value {
    this.charge(1);
    const head = list.items[0];
    if (head === undefined) return undefined;
    switch (head.t) {
      case 'list':
        // `((line) (line))`: a list of forms runs them in order.
        return this.body(list.items, 0, scope);
      case 'num': {
        // `(n body...)` runs its body every (n+1)th frame.
        const every = Math.max(1, Math.floor(head.value) + 1);
        return this.tick.frame % every === 0 ? this.body(list.items, 1, scope) : undefined;
      }
      case 'timing':
        return this.timer(list, head.seconds, head.cycle, scope, statement);
      case 'random':
        return this.pickOne(this.random.pick(list.items.slice(1)), scope, statement);
      case 'word':
        return this.callWord(list, head.name, scope, statement);
      default:
        return this.evaluate(head, scope);
    }
  }

  /** `(delay secs action...)` and `(hop secs a b...)`: a timer whose period is an argument. */
  timed(list: ListNode, cycle: boolean, scope: Scope, statement: boolean): Value {
    const seconds = this.num(this.evalNode(list.items[1], scope));
    return this.timer(list, seconds, cycle, scope, statement, 2);
  }

  private timer(
    list: ListNode,
    seconds: number,
    cycle: boolean,
    scope: Scope,
    statement: boolean,
    from = 1,
  ): Value {
    const period = seconds <= 0 ? 0 : Math.max(SHORTEST_PERIOD_MS, seconds * 1000);
    const slot = period === 0 ? this.tick.frame : Math.floor(this.tick.ms / period);
    if (cycle) {
      const count = list.items.length - from;
      if (count <= 0) return undefined;
      const index = ((slot % count) + count) % count;
      return this.pickOne(list.items[from + index], scope, statement);
    }
    const state = this.stateOf(list);
    const fires =
      state.lastSlot === undefined ? list.first === true || period === 0 : slot !== state.lastSlot;
    state.lastSlot = slot;
    return fires ? this.body(list.items, from, scope) : undefined;
  }

  private callWord(list: ListNode, written: string, scope: Scope, statement: boolean): Value {
    const name = withoutColonParameter(written);
    if (isEmbedCode(name)) return this.embed(name, list.items.slice(1), list, scope);
    if (isPaintingCode(name))
      return this.call(asStamp(list.items, list.line, list.column), scope, statement);
    const local = scope.find(name);
    if (local !== undefined && local !== this.globals) return local.vars.get(name);
    const builtin = this.builtins.get(name);
    if (builtin !== undefined) return builtin(this, list, scope, statement);
    const later = this.functions.get(name);
    if (later !== undefined) return this.callLater(later, list, scope);
    if (this.defs.has(name)) return this.defs.get(name);
    if (isColorWord(name) || isFadeWord(name)) return name;
    this.notDrawn(written);
    return 0;
  }

  private isDefined(name: string, scope: Scope): boolean {
    return scope.find(name) !== undefined || this.defs.has(name) || this.functions.has(name);
  }

  /** Names a word that draws nothing here: a built-in or live value this runtime lacks, or an unknown word. */
  private notDrawn(written: string): void {
    if (isColorWord(written) || isFadeWord(written)) return;
    const name = withoutColonParameter(written);
    if (isBuiltin(name) || UNSUPPORTED_VALUES.has(name)) this.unsupported(withReason(name));
    else if (!this.builtins.has(name))
      this.unknown(
        missingNameHint(name) === undefined ? written : `${written} (${missingNameHint(name)})`,
      );
  }

  private callLater(later: LaterFunction, list: ListNode, scope: Scope): Value {
    const values = this.args(list, scope);
    const inner = new Scope(this.globals);
    later.params.forEach((param, index) => {
      inner.vars.set(param, values[index]);
    });
    this.depth++;
    if (this.depth > this.maxDepth) {
      throw new StopFrame(
        `Functions called each other more than ${this.maxDepth} deep; the frame was cut short`,
      );
    }
    try {
      return this.body(later.body, 0, inner);
    } finally {
      this.depth--;
    }
  }

  /** Top-level `later` definitions exist from the first frame, wherever they are written. */
  private hoistLater(statements: readonly Node[]): void {
    for (const statement of statements) {
      if (
        statement.t === 'list' &&
        statement.items[0]?.t === 'word' &&
        statement.items[0].name === 'later'
      ) {
        this.defineLater(statement);
      }
    }
  }

  defineLater(list: ListNode): void {
    const nameNode = list.items[1];
    if (nameNode?.t !== 'word' || !isIdentifier(nameNode.name)) {
      this.problem(
        `(later ...) at line ${list.line}, column ${list.column} needs a name made of letters, digits and _`,
      );
      return;
    }
    const params: string[] = [];
    let index = 2;
    for (; index < list.items.length; index++) {
      const item = list.items[index];
      if (item === undefined || item.t === 'list') break;
      if (item.t === 'word') params.push(item.name);
    }
    this.functions.set(nameNode.name, { params, body: list.items.slice(index) });
  }

  // ---- definitions --------------------------------------------------------------------------

  define(name: string, value: Value, scope: Scope): void {
    const settled = value === RANDOM ? this.randomIn('byte') : value;
    if (scope !== this.globals) scope.vars.set(name, settled);
    else if (!this.defs.has(name)) this.defs.set(name, settled);
  }

  assign(name: string, value: Value, scope: Scope): void {
    const settled = value === RANDOM ? this.randomIn('byte') : value;
    const local = scope.find(name);
    if (local !== undefined && local !== this.globals) local.vars.set(name, settled);
    else this.defs.set(name, settled);
  }

  forget(name: string): void {
    this.defs.delete(name);
  }

  // ---- colors (inks.ts) ----------------------------------------------------------------------

  inkFrom(values: readonly Value[]): Ink | undefined {
    return this.inks.from(values);
  }

  setInk(ink: Ink | undefined): void {
    this.inks.set(ink);
  }

  paintOf(ink?: Ink, fresh = false): Paint {
    return this.inks.paintOf(ink, fresh);
  }

  fill(paint: Paint): void {
    this.chargePixels();
    this.surface.fillRect(0, 0, this.surface.width, this.surface.height, paint);
  }

  /** `wipe`: every pixel becomes the paint, alpha included, as the reference's `clear` does. */
  wipe(paint: Paint): void {
    this.chargePixels();
    this.surface.clear(paint);
  }

  private paintBackdrop(): void {
    const nodes = this.program.backdrop;
    if (nodes.length === 0) return;
    const only = nodes[0];
    const values =
      nodes.length === 1 && only?.t === 'list'
        ? only.items.map((item) => this.evaluate(item, this.globals))
        : nodes.map((node) => this.evaluate(node, this.globals));
    const ink = this.inkFrom(values);
    if (ink !== undefined) this.wipe(this.paintOf(ink));
  }

  // ---- drawing ------------------------------------------------------------------------------

  /** Splits a trailing mode word off shape arguments; numbers come back with randoms in range. */
  shapeArgs(values: Value[], ranges: readonly RandomRange[]): { numbers: number[]; mode: Mode } {
    const mode = takeMode(values, this.defaultOutline);
    const numbers = ranges.map((range, index) => {
      const value = values[index];
      return value === undefined ? this.randomIn(range) : this.num(value, range);
    });
    return { numbers, mode };
  }

  get screen(): Surface {
    return this.surface;
  }

  setOutline(outline: number): void {
    this.defaultOutline = outline;
  }

  drawBox(x: number, y: number, width: number, height: number, mode: Mode): void {
    const bounds = boxBounds(x, y, width, height, mode);
    const paint = this.paintOf(undefined, true);
    this.chargeArea(bounds.width, bounds.height);
    paintBox(this.surface, bounds, mode, paint);
  }

  // ---- pixels -------------------------------------------------------------------------------

  /** A whole-screen pixel change; under a `mask` (unless `withinMask` is false) only the mask's area. */
  pixels(change: (block: ReturnType<Surface['getPixels']>) => void, withinMask = true): void {
    this.chargePixels();
    const block = this.surface.getPixels();
    if (withinMask && this.view.mask !== undefined) withinArea(block, this.pixelArea, change);
    else change(block);
    this.surface.putPixels(block);
  }

  /** Where pixel transforms work, on screen: the whole screen, or the `mask` (draw-view.ts). */
  get pixelArea(): Area {
    return this.view.transformArea(this.surface.width, this.surface.height);
  }

  setFps(values: Value[]): void {
    if (values.length === 0) return;
    const fps = this.num(values[0]);
    this.targetFps = fps > 0 ? Math.min(fps, 240) : DEFAULT_FPS;
  }

  // ---- embeds -------------------------------------------------------------------------------

  /** `($code x y w h alpha)`: another published program, drawn live into a rectangle. */
  embed(code: string, argNodes: readonly Node[], node: Node, scope: Scope): Value {
    if (!this.embeds.allowed(code)) return undefined;
    const values = argNodes.map((arg) => this.evaluate(arg, scope));
    const holder = node.t === 'list' ? this.stateOf(node) : this.atomState(node);
    const cutShort = this.embeds.draw(code, values, holder);
    if (cutShort !== undefined) throw new StopFrame(cutShort);
    return undefined;
  }

  // ---- layers and paintings -----------------------------------------------------------------

  /** `bake` or `burn` (layers.ts): pending pixels are written first, then drawing moves. */
  layer(action: 'bake' | 'burn'): void {
    if (!this.layers.available) {
      this.unsupported(`${action} (layers are not available here)`);
      return;
    }
    if (this.view.screen !== undefined) {
      // A `resolution` screen is one picture shown scaled; it has no layers here.
      this.unsupported(`${action} (not after resolution here)`);
      return;
    }
    this.surface.flush();
    this.chargePixels();
    if (action === 'bake') this.layers.bake();
    else {
      this.layers.burn();
      // The reference starts scrolling afresh on the burnt picture.
      this.scrollState.carryX = 0;
      this.scrollState.carryY = 0;
    }
  }

  /** A `#code` painting's pixels once loaded; undefined until then (paintings.ts). */
  paintingPixels(code: string): PixelBlock | undefined {
    return this.paintings.pixels(code);
  }

  drawPicture(picture: PixelBlock, place: Placement): void {
    this.pixels((block) => drawPicture(block, picture, place));
  }

  /** Child interpreters merge this into their parent's report. */
  get reportEntries(): RuntimeReport {
    return this.report;
  }

  // ---- helpers for builtins -----------------------------------------------------------------

  evalArgs(list: ListNode, scope: Scope): Value[] {
    return this.args(list, scope);
  }

  evalNode(node: Node | undefined, scope: Scope): Value {
    return node === undefined ? undefined : this.evaluate(node, scope);
  }

  runBody(nodes: readonly Node[], from: number, scope: Scope): Value {
    return this.body(nodes, from, scope);
  }

  truthy(value: Value): boolean {
    return truthy(value);
  }

  stateOfList(list: ListNode): FormState {
    return this.stateOf(list);
  }

  randomNumberIn(range: RandomRange): number {
    return this.randomIn(range);
  }

  pick(list: ListNode, scope: Scope, statement: boolean): Value {
    return this.pickOne(this.random.pick(list.items.slice(1)), scope, statement);
  }

  step(list: ListNode, scope: Scope, statement: boolean): Value {
    const count = list.items.length - 1;
    if (count <= 0) return undefined;
    const state = this.stateOf(list);
    const index = state.index ?? 0;
    state.index = (index + 1) % count;
    return this.pickOne(list.items[1 + index], scope, statement);
  }

  once(list: ListNode, scope: Scope): Value {
    const state = this.stateOf(list);
    if (state.done) return undefined;
    state.done = true;
    return this.body(list.items, 1, scope);
  }

  newScope(parent: Scope): Scope {
    return new Scope(parent);
  }

  isGlobal(scope: Scope): boolean {
    return scope === this.globals;
  }

  toNumber(value: Value, range: RandomRange = 'byte'): number {
    return this.num(value, range);
  }

  /** `(clock)`: the time of this frame in ms since 1970 (`epochMs` plus the tick's ms). */
  clockMs(): number {
    return (this.options.epochMs ?? 0) + this.tick.ms;
  }

  randomNumber(): number {
    return this.random.next();
  }

  /** The seed the program started with (for effects that draw from generators of their own). */
  get seed(): number {
    return this.options.seed ?? 1;
  }

  tell(kind: 'unsupported' | 'unknown' | 'problem', entry: string): void {
    if (kind === 'unsupported') this.unsupported(entry);
    else if (kind === 'unknown') this.unknown(entry);
    else this.problem(entry);
  }

  get now(): Tick {
    return this.tick;
  }

  get repeatLimit(): number {
    return REPEAT_LIMIT;
  }

  get textSize(): number {
    return TEXT_SIZE;
  }

  /** Shapes cost by the area they can cover on screen (a huge box is clipped, so it is cheap). */
  chargeArea(width: number, height: number): void {
    const w = Math.min(Math.abs(width), this.surface.width);
    const h = Math.min(Math.abs(height), this.surface.height);
    this.charge(1 + Math.ceil((w * h) / (PIXELS_PER_STEP * 16)));
  }

  chargeSteps(units: number): void {
    this.charge(units);
  }
}

/** `(#code x y ...)` read as `(stamp #code x y ...)`. */
function asStamp(items: readonly Node[], line: number, column: number): ListNode {
  return { t: 'list', items: [{ t: 'word', name: 'stamp' }, ...items], line, column };
}

export type { Scope };
