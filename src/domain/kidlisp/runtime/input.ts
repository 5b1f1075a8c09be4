import type { ListNode } from './compile.js';
import type { KeyInput, PointerInput } from './types.js';

/** Which pointer event each handler word answers: `tap` a touch, `draw` a drag, `lift` a release. */
export type HandlerKind = 'tap' | 'draw' | 'lift';

/**
 * The live values of the language this runtime reads: the clock, the pointer, the microphone.
 * The others (`beat`, `paramA`...) read as 0 and are named in the notice.
 */
export const LIVE_VALUES_READ: ReadonlySet<string> = new Set([
  'clock',
  'penx',
  'peny',
  'down',
  'dx',
  'dy',
  'mic',
  'amp',
]);

/** The pointer as programs read it: `penx`, `peny`, `down` (1 while pressed, else 0). */
export interface Pen {
  x: number;
  y: number;
  down: boolean;
}

/** Keys that press and release the pen where it is, for a visitor without a pointer. */
const PRESS_KEYS: ReadonlySet<string> = new Set(['Enter', ' ']);
/** Arrow keys move the pen one pixel (a drag while pressed). */
const ARROWS: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['ArrowLeft', [-1, 0]],
  ['ArrowRight', [1, 0]],
  ['ArrowUp', [0, -1]],
  ['ArrowDown', [0, 1]],
]);

const isKey = (event: PointerInput | KeyInput): event is KeyInput =>
  event.type === 'keydown' || event.type === 'keyup';

const finiteOr = (value: number | undefined, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/**
 * Pointer and key input, as the reference delivers it (its `act`): before a frame's step, each
 * event moves the pen, then runs the handler the program registered on an earlier frame.
 * `(tap body...)`, `(draw body...)` and `(lift body...)` only register their bodies; the last
 * registration wins. While a `draw` body runs, `dx`/`dy` are the drag's movement (the
 * reference binds them for that body only); everywhere else they read 0.
 * Keys stand in for the pointer: Enter or Space press and release the pen where it is, the
 * arrow keys move it a pixel (a drag while pressed). The reference's KidLisp reads no keys.
 */
export class PointerState {
  readonly pen: Pen = { x: 0, y: 0, down: false };
  /** `dx`/`dy`: the movement of the drag whose `draw` body is running, else 0. */
  readonly delta = { x: 0, y: 0 };
  private readonly queue: (PointerInput | KeyInput)[] = [];
  private readonly handlers = new Map<HandlerKind, ListNode>();
  private keyPressed = false;

  push(event: PointerInput | KeyInput): void {
    if (this.queue.length < 1000) this.queue.push(event);
  }

  register(kind: HandlerKind, list: ListNode): void {
    this.handlers.set(kind, list);
  }

  /** Applies queued events in order; `run` evaluates a handler's body. */
  deliver(run: (body: ListNode) => void): void {
    for (const event of this.queue.splice(0)) {
      if (isKey(event)) this.key(event, run);
      else this.pointer(event, run);
    }
  }

  private pointer(event: PointerInput, run: (body: ListNode) => void): void {
    const x = finiteOr(event.x, this.pen.x);
    const y = finiteOr(event.y, this.pen.y);
    if (event.type === 'touch') {
      Object.assign(this.pen, { x, y, down: true });
      this.runHandler('tap', run);
    } else if (event.type === 'draw') {
      const dx = finiteOr(event.dx, x - this.pen.x);
      const dy = finiteOr(event.dy, y - this.pen.y);
      Object.assign(this.pen, { x, y });
      this.drag(dx, dy, run);
    } else {
      this.pen.down = false;
      this.runHandler('lift', run);
    }
  }

  private key(event: KeyInput, run: (body: ListNode) => void): void {
    const key = String(event.key);
    if (PRESS_KEYS.has(key)) {
      if (event.type === 'keydown' && !this.pen.down) {
        this.keyPressed = true;
        this.pointer({ type: 'touch', x: this.pen.x, y: this.pen.y }, run);
      } else if (event.type === 'keyup' && this.keyPressed) {
        this.keyPressed = false;
        this.pointer({ type: 'lift', x: this.pen.x, y: this.pen.y }, run);
      }
      return;
    }
    const step = ARROWS.get(key);
    if (step === undefined || event.type !== 'keydown') return;
    const [dx, dy] = step;
    this.pen.x += dx;
    this.pen.y += dy;
    if (this.pen.down) this.drag(dx, dy, run);
  }

  private drag(dx: number, dy: number, run: (body: ListNode) => void): void {
    Object.assign(this.delta, { x: dx, y: dy });
    try {
      this.runHandler('draw', run);
    } finally {
      Object.assign(this.delta, { x: 0, y: 0 });
    }
  }

  private runHandler(kind: HandlerKind, run: (body: ListNode) => void): void {
    const body = this.handlers.get(kind);
    if (body !== undefined) run(body);
  }
}
