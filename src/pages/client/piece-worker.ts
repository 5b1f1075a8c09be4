/**
 * The Worker a piece runs in, inside the sandbox frame. `pieceWorker` is turned into text
 * (`Function.prototype.toString`) and started from a blob: URL by piece-sandbox.ts, so it must be
 * self-contained: it may use only globals and what it declares inside itself (types are erased).
 *
 * It imports the piece's module from a blob: URL and gives it a small `$` API following the
 * piece template's conventions: `boot($)` once, then `sim($)` and `paint($)` every frame, and
 * `act($)` with `$.event` for each pointer event. Drawing: `screen`, `wipe`, `ink` (chainable:
 * `ink(255, 0, 0).box(...)`), `line`, `box`, `circle`, `plot`/`point`, `pen`. Any other name
 * the piece calls is recorded and reported (the call does nothing and returns `$`). After each
 * frame it posts `{type: 'frame'}`: the sandbox terminates the Worker when that heartbeat stops.
 */
import type { SandboxToWorker, WorkerToSandbox } from './piece-messages.js';

export function pieceWorker(): void {
  type Fn = (...args: unknown[]) => unknown;
  interface PieceModule {
    boot?: Fn;
    sim?: Fn;
    paint?: Fn;
    act?: Fn;
  }
  const scope = self as unknown as {
    postMessage(message: WorkerToSandbox): void;
    addEventListener(
      type: 'message',
      listener: (event: MessageEvent<SandboxToWorker>) => void,
    ): void;
  };
  const post = (message: WorkerToSandbox) => scope.postMessage(message);
  const FRAME_MS = 1000 / 60;

  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  let piece: PieceModule = {};
  let stopped = false;
  let frame = 0;
  const screen = { width: 256, height: 256 };
  const pen = { x: 0, y: 0, down: false };
  const unsupported = new Set<string>();
  let ink = 'rgb(255, 255, 255)';

  const describe = (error: unknown) =>
    error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const fail = (message: string) => {
    if (stopped) return;
    stopped = true;
    post({ type: 'failed', message });
  };

  const byte = (value: unknown) => Math.max(0, Math.min(255, Math.round(Number(value) || 0)));
  /** `ink`/`wipe` arguments: none (random), a CSS color name, an array, or 1-4 numbers (grey; grey, alpha; RGB; RGBA, each 0..255). */
  const colorOf = (args: unknown[]): string => {
    const [first] = args;
    if (Array.isArray(first)) return colorOf(first);
    if (typeof first === 'string') return first;
    const n = args.map(byte);
    switch (n.length) {
      case 0:
        return `rgb(${byte(Math.random() * 255)}, ${byte(Math.random() * 255)}, ${byte(Math.random() * 255)})`;
      case 1:
        return `rgb(${n[0]}, ${n[0]}, ${n[0]})`;
      case 2:
        return `rgba(${n[0]}, ${n[0]}, ${n[0]}, ${(n[1] ?? 255) / 255})`;
      case 3:
        return `rgb(${n[0]}, ${n[1]}, ${n[2]})`;
      default:
        return `rgba(${n[0]}, ${n[1]}, ${n[2]}, ${(n[3] ?? 255) / 255})`;
    }
  };
  const num = (value: unknown) => Number(value) || 0;
  /** Shapes take numbers or one array/object of them (`box({x, y, w, h})`, `plot([x, y])`). */
  const spread = (args: unknown[], keys: string[]): unknown[] => {
    const [first] = args;
    if (Array.isArray(first)) return [...first, ...args.slice(1)];
    if (typeof first === 'object' && first !== null) {
      const record = first as Record<string, unknown>;
      return [...keys.map((key) => record[key]), ...args.slice(1)];
    }
    return args;
  };

  const api: Record<string, unknown> = {
    screen,
    pen,
    event: undefined,
  };
  const note = (name: string) => {
    if (unsupported.has(name)) return;
    unsupported.add(name);
    post({ type: 'unsupported', names: [...unsupported] });
  };
  /** A stand-in for any name the API lacks: calling it records the name; its properties are stand-ins too. */
  const missing = (path: string): unknown =>
    new Proxy(() => {}, {
      apply() {
        note(path);
        return $;
      },
      get(_target, property) {
        if (typeof property !== 'string' || property === 'then') return undefined;
        return missing(`${path}.${property}`);
      },
    });
  const $ = new Proxy(api, {
    get(target, property) {
      if (typeof property !== 'string' || property in target) return Reflect.get(target, property);
      if (property === 'then' || property === 'toJSON') return undefined;
      return missing(property);
    },
  });

  Object.assign(api, {
    wipe(...args: unknown[]) {
      if (ctx) {
        ctx.fillStyle = colorOf(args);
        ctx.fillRect(0, 0, screen.width, screen.height);
        ctx.fillStyle = ink;
      }
      return $;
    },
    ink(...args: unknown[]) {
      ink = colorOf(args);
      if (ctx) {
        ctx.fillStyle = ink;
        ctx.strokeStyle = ink;
      }
      return $;
    },
    line(...args: unknown[]) {
      const [x0, y0, x1, y1] = spread(args, ['x0', 'y0', 'x1', 'y1']).map(num);
      if (ctx) {
        ctx.strokeStyle = ink;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(Math.floor(x0 ?? 0) + 0.5, Math.floor(y0 ?? 0) + 0.5);
        ctx.lineTo(Math.floor(x1 ?? 0) + 0.5, Math.floor(y1 ?? 0) + 0.5);
        ctx.stroke();
      }
      return $;
    },
    box(...args: unknown[]) {
      const parts = spread(args, ['x', 'y', 'w', 'h']);
      const [x, y, w, h] = parts.slice(0, 4).map(num);
      const mode = parts[4];
      if (ctx) {
        const bx = Math.floor(x ?? 0);
        const by = Math.floor(y ?? 0);
        const bw = Math.floor(w ?? 0);
        const bh = Math.floor(h ?? w ?? 0);
        if (mode === 'outline' || mode === 'inline') {
          ctx.strokeStyle = ink;
          ctx.lineWidth = 1;
          ctx.strokeRect(bx + 0.5, by + 0.5, bw - 1, bh - 1);
        } else {
          ctx.fillStyle = ink;
          ctx.fillRect(bx, by, bw, bh);
        }
      }
      return $;
    },
    circle(...args: unknown[]) {
      const parts = spread(args, ['x', 'y', 'radius']);
      const [x, y, r] = parts.slice(0, 3).map(num);
      const filled = parts[3] === true || parts[3] === 'fill';
      if (ctx) {
        ctx.beginPath();
        ctx.arc(x ?? 0, y ?? 0, Math.abs(r ?? 0), 0, Math.PI * 2);
        if (filled) {
          ctx.fillStyle = ink;
          ctx.fill();
        } else {
          ctx.strokeStyle = ink;
          ctx.lineWidth = 1;
          ctx.stroke();
        }
      }
      return $;
    },
    plot(...args: unknown[]) {
      const [x, y] = spread(args, ['x', 'y']).map(num);
      if (ctx) {
        ctx.fillStyle = ink;
        ctx.fillRect(Math.floor(x ?? 0), Math.floor(y ?? 0), 1, 1);
      }
      return $;
    },
  });
  api.point = api.plot;

  const call = (name: keyof PieceModule): boolean => {
    const fn = piece[name];
    if (typeof fn !== 'function') return true;
    try {
      fn($);
      return true;
    } catch (error) {
      fail(`${name} threw ${describe(error)}`);
      return false;
    }
  };

  const tick = () => {
    if (stopped) return;
    const began = performance.now();
    if (!call('sim') || !call('paint')) return;
    frame++;
    post({ type: 'frame', frame });
    setTimeout(tick, Math.max(0, FRAME_MS - (performance.now() - began)));
  };

  async function start(message: Extract<SandboxToWorker, { type: 'start' }>): Promise<void> {
    screen.width = message.width;
    screen.height = message.height;
    ctx = message.canvas.getContext('2d');
    if (ctx === null) return fail('this browser gives a Worker no 2D canvas');
    ctx.fillStyle = 'black';
    ctx.fillRect(0, 0, screen.width, screen.height);
    const url = URL.createObjectURL(new Blob([message.source], { type: 'text/javascript' }));
    try {
      piece = (await import(url)) as PieceModule;
    } catch (error) {
      return fail(`the module did not load: ${describe(error)}`);
    } finally {
      URL.revokeObjectURL(url);
    }
    post({ type: 'frame', frame: 0 });
    if (call('boot')) tick();
  }

  scope.addEventListener('message', (event) => {
    const message = event.data;
    if (message.type === 'start') void start(message);
    else if (message.type === 'pointer' && !stopped) {
      const { is, x, y } = message.event;
      pen.x = x;
      pen.y = y;
      pen.down = is === 'touch' || is === 'draw';
      api.event = { is: (name: string) => name === is, type: is, x, y };
      call('act');
    }
  });
}
