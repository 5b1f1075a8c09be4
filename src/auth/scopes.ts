import { AppError } from '../app-error.js';

/** What a key may do: `publish` works as its account, `keys` makes, lists and revokes its account's keys. */
export const SCOPES = ['publish', 'keys'] as const;
export type Scope = (typeof SCOPES)[number];

/** A member's key when none is asked for (`POST /api/keys`). */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = ['publish'];

/**
 * `token create`'s keys, and tokens issued before scopes existed: an operator hands a member one,
 * with which the member makes their own keys even without an issuer.
 */
export const OPERATOR_TOKEN_SCOPES: readonly Scope[] = SCOPES;

export const scopesOf = (stored: readonly string[] | undefined): Scope[] =>
  (stored ?? OPERATOR_TOKEN_SCOPES).filter((scope): scope is Scope =>
    (SCOPES as readonly string[]).includes(scope),
  );

/** `publish,keys` -> its scopes; null when one is not a scope or none is named. */
export function parseScopes(text: string): Scope[] | null {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0 || names.some((name) => !(SCOPES as readonly string[]).includes(name)))
    return null;
  return names as Scope[];
}

/** Fails with 403 INSUFFICIENT_SCOPE when the request's credentials may not do `scope`. */
export function requireScope(
  viewer: { scopes: readonly Scope[] } | null,
  scope: Scope,
  doing: string,
): void {
  if (viewer && !viewer.scopes.includes(scope))
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This key may not ${doing}: it lacks the "${scope}" scope.`,
      { scope },
    );
}
