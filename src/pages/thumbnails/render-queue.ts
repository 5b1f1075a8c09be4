import { AppError } from '../../app-error.js';
import type { TraceScope } from '../../telemetry/active-span.js';
import { waitSpan, workSpan } from '../../telemetry/work-spans.js';

/**
 * Who a render is for: a thumbnail someone is waiting for (a page's image, a share preview), one
 * drawn in the background (a work just published), or a tool render one client asked for.
 */
/** `trace`: in a traced request, the span the turn's waits and render are spans below. */
export type RenderTurn = (
  | { kind: 'requested' }
  | { kind: 'background' }
  | { kind: 'tool'; client: string }
) & { trace?: TraceScope | undefined };

/** The order waiting renders start in. */
const PRIORITY = ['requested', 'background', 'tool'] as const;

export interface RenderQueueOptions {
  /** Renders at once, thumbnails and tool renders together. */
  concurrency: number;
  /** Tool renders one client may have admitted (running or waiting for a core) at once. */
  perClient: number;
  /** How long a client's render past `perClient` waits to be admitted; then RATE_LIMITED (429). */
  clientWaitMs: number;
  /** How long an admitted render waits for a core; then BUSY (503). */
  queueWaitMs: number;
}

export interface RenderQueue {
  run<T>(turn: RenderTurn, work: () => Promise<T>): Promise<T>;
  /** Renders running and waiting, for tests and metrics. */
  readonly load: { running: number; waiting: number };
}

const CLIENT_RETRY_AFTER_SECONDS = 2;
const BUSY_RETRY_AFTER_SECONDS = 1;

interface Waiter {
  kind: RenderTurn['kind'];
  grant(): void;
}

/**
 * One queue for every render of this process, fair in two ways. A client asking for tool renders
 * (render_kidlisp, POST /api/render-kidlisp) has at most `perClient` admitted; its next waits up to
 * `clientWaitMs` for one of them to end, then is refused with Retry-After, so one client cannot
 * fill the queue. And thumbnails come first (one someone is waiting for before one drawn in the
 * background): a waiting thumbnail takes the next free core before any tool render, and
 * thumbnails count only against each other (at most `concurrency` of them),
 * so a new work's picture never waits for a heavy tool render to finish; tool renders start only
 * while thumbnails and tool renders together hold fewer than `concurrency` cores.
 */
export function createRenderQueue(options: RenderQueueOptions): RenderQueue {
  const running = { requested: 0, background: 0, tool: 0 };
  const thumbnails = () => running.requested + running.background;
  const waiting: Waiter[] = [];
  const admitted = new Map<string, number>();
  const clientQueues = new Map<string, (() => void)[]>();

  const mayStart = (kind: RenderTurn['kind']) =>
    kind === 'tool'
      ? thumbnails() + running.tool < options.concurrency
      : thumbnails() < options.concurrency;
  const startNext = () => {
    for (const kind of PRIORITY) {
      for (let index = waiting.findIndex((waiter) => waiter.kind === kind); index >= 0; ) {
        if (!mayStart(kind)) break;
        const [next] = waiting.splice(index, 1) as [Waiter];
        running[kind]++;
        next.grant();
        index = waiting.findIndex((waiter) => waiter.kind === kind);
      }
    }
  };

  /** Waits for a core; resolves with its release. */
  const core = (kind: RenderTurn['kind']) =>
    new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        kind,
        grant: () => {
          clearTimeout(timer);
          resolve(() => {
            running[kind]--;
            startNext();
          });
        },
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(waiter);
        if (index >= 0) waiting.splice(index, 1);
        reject(
          new AppError('BUSY', 'Too many pictures are waiting to be drawn; please retry shortly.', {
            retryAfter: BUSY_RETRY_AFTER_SECONDS,
          }),
        );
      }, options.queueWaitMs);
      waiting.push(waiter);
      startNext();
    });

  /** Admits one more render of `client`, waiting up to clientWaitMs; resolves with its release. */
  const admit = (client: string) =>
    new Promise<() => void>((resolve, reject) => {
      const release = () => {
        const queue = clientQueues.get(client);
        const next = queue?.shift();
        if (queue?.length === 0) clientQueues.delete(client);
        if (next) next();
        else {
          const count = (admitted.get(client) ?? 1) - 1;
          if (count > 0) admitted.set(client, count);
          else admitted.delete(client);
        }
      };
      const count = admitted.get(client) ?? 0;
      if (count < options.perClient) {
        admitted.set(client, count + 1);
        resolve(release);
        return;
      }
      const queue = clientQueues.get(client) ?? [];
      clientQueues.set(client, queue);
      const grant = () => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0) clientQueues.delete(client);
        reject(
          new AppError(
            'RATE_LIMITED',
            `You already have ${options.perClient} renders in flight; wait for one to finish, then retry.`,
            { retryAfter: CLIENT_RETRY_AFTER_SECONDS },
          ),
        );
      }, options.clientWaitMs);
      queue.push(grant);
    });

  return {
    async run(turn, work) {
      const leaveClient =
        turn.kind === 'tool'
          ? await waitSpan('render', turn.trace, () => admit(turn.client))
          : () => {};
      try {
        const leaveCore = await waitSpan('render', turn.trace, () => core(turn.kind));
        try {
          return await workSpan('render', turn.trace, work);
        } finally {
          leaveCore();
        }
      } finally {
        leaveClient();
      }
    },
    get load() {
      return { running: thumbnails() + running.tool, waiting: waiting.length };
    },
  };
}
