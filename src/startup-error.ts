/** How long a failed start waits for the embedded database to close before giving up on it. */
export const CLOSE_AFTER_FAILURE_MS = 5_000;

/**
 * The service could not start: one line saying why (the CLI prints it alone and exits 1), the
 * error that stopped it kept as its cause for the tests and the logs.
 */
export class StartupError extends Error {
  override name = 'StartupError';

  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`publish-gateway did not start: ${reason.split('\n')[0]?.trim() || 'unknown error'}`, {
      cause,
    });
  }
}

/** Runs `close` (the embedded database of a start that failed), waiting for it at most a few seconds. */
export async function closeWithin(close: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    close().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_AFTER_FAILURE_MS).unref();
    }),
  ]);
  clearTimeout(timer);
}
