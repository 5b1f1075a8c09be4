/**
 * The one typed error every operation throws. Each face translates it:
 * REST to a status and the contract's JSON shape, GraphQL to `extensions.code`,
 * MCP to a tool error. Nothing else carries user-facing failure.
 */
export const errorStatus = {
  INVALID_JSON: 400,
  INVALID_INPUT: 400,
  SOURCE_REQUIRED: 400,
  SOURCE_NOT_STRING: 400,
  SOURCE_TOO_LONG: 400,
  NAME_INVALID: 400,
  NAME_UNSAFE_CHARACTERS: 400,
  PIECE_NO_LIFECYCLE: 400,
  PIECE_SYNTAX: 400,
  EXT_UNSUPPORTED: 400,
  SLUG_INVALID: 400,
  METADATA_INVALID: 400,
  TAPE_TOO_LONG: 400,
  LIMIT_INVALID: 400,
  LIMIT_TOO_LARGE: 400,
  BEFORE_INVALID: 400,
  INSTANCE_INVALID: 400,
  SEARCH_TOO_LONG: 400,
  FROM_INVALID: 400,
  CURSOR_INVALID: 400,
  CODE_REQUIRED: 400,
  CODES_INVALID: 400,
  TOO_MANY_CODES: 400,
  /** GraphQL `nodes`: more ids than it takes at once. */
  TOO_MANY_IDS: 400,
  SORT_INVALID: 400,
  HANDLE_INVALID: 400,
  PATH_INVALID: 400,
  UNAUTHENTICATED: 401,
  METRICS_UNAUTHORIZED: 401,
  PERSISTED_QUERY_NOT_FOUND: 400,
  PERSISTED_QUERY_HASH_MISMATCH: 400,
  /** A GraphQL query priced above the limit of its cost (src/graphql/query-cost.ts). */
  QUERY_TOO_COSTLY: 400,
  ORIGIN_NOT_ALLOWED: 403,
  HOST_NOT_ALLOWED: 403,
  /** The key authenticates, but lacks the scope the request needs (src/auth/scopes.ts). */
  INSUFFICIENT_SCOPE: 403,
  MEDIA_NOT_FOUND: 404,
  NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
  /** No account has the handle of an author page or feed (`/@handle`). */
  AUTHOR_NOT_FOUND: 404,
  /** `DELETE /api/keys/<id>`: the member has no such key (another member's answers this too). */
  KEY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  MUTATION_REQUIRES_POST: 405,
  NOT_ACCEPTABLE: 406,
  /** The work was taken down (by an operator, or deleted by its author); its content is refused again. */
  ITEM_REMOVED: 410,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  BATCH_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** render_kidlisp: the program did not draw the asked frames within the time budget. */
  RENDER_TOO_SLOW: 422,
  RATE_LIMITED: 429,
  /** One client holds SUBSCRIBERS_PER_CLIENT live chat streams already. */
  TOO_MANY_STREAMS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DB_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  /** AUTH_ISSUER could not be reached to start or finish a sign-in on the site. */
  SIGN_IN_UNAVAILABLE: 503,
  TIMEOUT: 503,
  BUSY: 503,
  /** Every live chat stream of the process is taken (SUBSCRIBERS_MAX). */
  SUBSCRIBERS_FULL: 503,
  /** A live chat subscriber fell behind its buffer; it resumes after the cursor it is given. */
  SUBSCRIBER_BEHIND: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** The contract's JSON body: `{ error, message, code, ...details }`. */
  toJSON(): Record<string, unknown> {
    return { error: this.message, message: this.message, code: this.code, ...this.details };
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

/** Seconds a client is asked to wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** The header that goes with each error status, and what it means (docs/contract.md, errors). */
export const ERROR_STATUS_HEADERS = {
  401: {
    name: 'WWW-Authenticate',
    value: 'Bearer error="invalid_token"',
    meaning: 'a token was sent but is invalid, expired or revoked',
  },
  405: { name: 'Allow', meaning: 'The methods this path answers.' },
  429: { name: 'Retry-After', meaning: 'Seconds to wait.' },
  503: { name: 'Retry-After', meaning: 'Seconds to wait.' },
} as const;

/** The headers an error is answered with, on every face. */
export function errorHeaders(error: AppError): Record<string, string> {
  switch (error.code) {
    case 'UNAUTHENTICATED':
      return { [ERROR_STATUS_HEADERS[401].name]: ERROR_STATUS_HEADERS[401].value };
    case 'DB_UNAVAILABLE':
    case 'STORAGE_UNAVAILABLE':
    case 'TIMEOUT':
    case 'SUBSCRIBERS_FULL':
    case 'TOO_MANY_STREAMS':
      return { 'Retry-After': String(RETRY_AFTER_SECONDS) };
    case 'BUSY':
      return { 'Retry-After': String(error.details.retryAfter ?? 1) };
    case 'RATE_LIMITED':
      return { 'Retry-After': String(error.details.retryAfter ?? 60) };
    default:
      return {};
  }
}
