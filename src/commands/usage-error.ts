/** A mistake in how a command was called: shown to the user as its message alone. */
export class UsageError extends Error {
  override name = 'UsageError';

  /** `exitCode`: the process's exit status (1 unless a command documents another). */
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
