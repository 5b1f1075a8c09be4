/** A mistake in how a command was called: shown to the user as its message alone. */
export class UsageError extends Error {
  override name = 'UsageError';
}
