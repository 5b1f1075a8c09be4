/**
 * Messages between a piece page (piece-host.ts), its sandbox frame (piece-sandbox.ts) and the
 * Worker the frame runs the piece in (piece-worker.ts).
 */

/** Sandbox -> page. */
export type SandboxToPage =
  | { type: 'piece-sandbox-ready' }
  /** The whole notice, one string a line (empty: nothing to say). */
  | { type: 'piece-notice'; lines: string[] }
  | { type: 'piece-state'; state: 'running' | 'stopped' | 'failed' };

/** Page -> sandbox. */
export interface PageToSandbox {
  type: 'piece-source';
  source: string;
}

/** Worker -> sandbox. */
export type WorkerToSandbox =
  | { type: 'frame'; frame: number }
  | { type: 'unsupported'; names: string[] }
  | { type: 'failed'; message: string };

export interface PointerMessage {
  is: 'touch' | 'draw' | 'lift' | 'move';
  x: number;
  y: number;
}

/** Sandbox -> worker. */
export type SandboxToWorker =
  | { type: 'start'; source: string; canvas: OffscreenCanvas; width: number; height: number }
  | { type: 'pointer'; event: PointerMessage };
