import type { ListNode } from './compile.js';
import type { PointerInput } from './types.js';

/** Which pointer event each handler word answers: `tap` a touch, `draw` a drag, `lift` a release. */
export type HandlerKind = 'tap' | 'draw' | 'lift';

/**
 * The live values of the language this runtime reads: the clock and the pointer. The others
 * (sound, `paramA`..., `dx`/`dy`) read as 0 and are named in the notice.
 */
export const LIVE_VALUES_READ: ReadonlySet<string> = new Set(['clock', 'penx', 'peny', 'down']);

/** The pointer as programs read it: `penx`, `peny`, `down` (1 while pressed, else 0). */
export interface Pen {
  x: number;
  y: number;
  down: boolean;
}

/**
 * Pointer input, as the reference delivers it (its `act`): before a frame's step, each event
 * moves the pen, then runs the handler the program registered on an earlier frame. `(tap body...)`,
 * `(draw body...)` and `(lift body...)` only register their bodies; the last registration wins.
 */
export class PointerState {
  readonly pen: Pen = { x: 0, y: 0, down: false };
  private readonly queue: PointerInput[] = [];
  private readonly handlers = new Map<HandlerKind, ListNode>();

  push(event: PointerInput): void {
    this.queue.push(event);
  }

  register(kind: HandlerKind, list: ListNode): void {
    this.handlers.set(kind, list);
  }

  /** Applies queued events in order; `run` evaluates a handler's body. */
  deliver(run: (body: ListNode) => void): void {
    for (const event of this.queue.splice(0)) {
      const x = Number.isFinite(event.x) ? event.x : this.pen.x;
      const y = Number.isFinite(event.y) ? event.y : this.pen.y;
      if (event.type === 'touch') {
        Object.assign(this.pen, { x, y, down: true });
        this.runHandler('tap', run);
      } else if (event.type === 'draw') {
        Object.assign(this.pen, { x, y });
        this.runHandler('draw', run);
      } else {
        this.pen.down = false;
        this.runHandler('lift', run);
      }
    }
  }

  private runHandler(kind: HandlerKind, run: (body: ListNode) => void): void {
    const body = this.handlers.get(kind);
    if (body !== undefined) run(body);
  }
}
