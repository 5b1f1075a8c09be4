import { z } from 'zod';
import { AppError, type ErrorCode } from '../app-error.js';
import { formatCount } from '../domain/format.js';

/**
 * Custom checks name their machine code in the issue's params: `{ code, details }`.
 * Built-in zod checks are mapped by field, so every input error carries the contract's code.
 */
export interface IssueParams {
  code: ErrorCode;
  details?: Record<string, unknown>;
}

type Issue = z.core.$ZodIssue;

const fieldCodes: Record<string, (issue: Issue, value: unknown) => ErrorCode> = {
  source: (issue, value) => {
    if (value === undefined || value === null) return 'SOURCE_REQUIRED';
    if (issue.code === 'too_big') return 'SOURCE_TOO_LONG';
    return 'SOURCE_NOT_STRING';
  },
  name: () => 'NAME_INVALID',
  slug: () => 'SLUG_INVALID',
  ext: () => 'EXT_UNSUPPORTED',
  metadata: () => 'METADATA_INVALID',
  limit: (issue) => (issue.code === 'too_big' ? 'LIMIT_TOO_LARGE' : 'LIMIT_INVALID'),
  first: (issue) => (issue.code === 'too_big' ? 'LIMIT_TOO_LARGE' : 'LIMIT_INVALID'),
  last: (issue) => (issue.code === 'too_big' ? 'LIMIT_TOO_LARGE' : 'LIMIT_INVALID'),
  before: () => 'BEFORE_INVALID',
  after: () => 'CURSOR_INVALID',
  instance: () => 'INSTANCE_INVALID',
  search: (issue) => (issue.code === 'too_big' ? 'SEARCH_TOO_LONG' : 'INVALID_INPUT'),
  from: () => 'FROM_INVALID',
  sort: () => 'SORT_INVALID',
};

function valueAt(input: unknown, field: PropertyKey | undefined): unknown {
  if (field === undefined || typeof input !== 'object' || input === null) return undefined;
  return (input as Record<PropertyKey, unknown>)[field];
}

/** Turns the first zod issue into the contract's typed error. */
export function inputError(error: z.ZodError, input: unknown): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('INVALID_INPUT', 'The input is invalid.');
  const params = (issue as { params?: Partial<IssueParams> }).params;
  if (params?.code) return new AppError(params.code, issue.message, params.details ?? {});
  const field = issue.path[0];
  if (field === undefined)
    return new AppError('INVALID_INPUT', 'The request body must be a JSON object.');
  const codeFor = fieldCodes[String(field)];
  const value = 'input' in issue ? issue.input : valueAt(input, field);
  const code = codeFor ? codeFor(issue, value) : 'INVALID_INPUT';
  return new AppError(code, issue.message, { field: issue.path.join('.') });
}

/** Validates an input with its one schema, throwing the contract's error on failure. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw inputError(result.error, input);
  return result.data;
}

/** Adds a custom issue that carries its machine code. */
export function failWith(
  ctx: z.RefinementCtx,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): void {
  ctx.addIssue({ code: 'custom', message, params: { code, details } satisfies IssueParams });
}

/**
 * The `source` field of an operation, with the contract's messages: required, a string, at most
 * `max` characters and, unless `allowBlank`, not blank.
 */
export function sourceField(max: number, options: { allowBlank?: boolean } = {}) {
  const text = z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? 'source is required.'
          : 'source must be a string.',
    })
    .max(max, `source is longer than ${formatCount(max)} characters.`);
  if (options.allowBlank) return text;
  return text.superRefine((value, ctx) => {
    if (value.trim().length === 0) failWith(ctx, 'SOURCE_REQUIRED', 'source is empty.');
  });
}

/**
 * A page size from a query string or a number: a whole number from `min` (1 for REST limits; 0
 * for a Relay `first`/`last`, which asks for an empty page) to `max`; over `max` is
 * LIMIT_TOO_LARGE, anything else LIMIT_INVALID (by the field's name).
 */
export function pageSizeField(field: string, { min = 1, max }: { min?: 0 | 1; max: number }) {
  const message = `${field} must be a whole number from ${min} to ${max}.`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[+-]?\d+$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().int(message).min(min, message).max(max, `${field} cannot exceed ${max}.`));
}

/**
 * A Relay cursor (`after`, `before`) as `decode` reads the ones this service issued; any other
 * text is CURSOR_INVALID.
 */
export const cursorField = <T>(field: string, decode: (text: string) => T | undefined) =>
  z.string({ error: `${field} must be a cursor from a previous page.` }).transform((text, ctx) => {
    const decoded = decode(text);
    if (decoded !== undefined) return decoded;
    failWith(
      ctx,
      'CURSOR_INVALID',
      `${field} is not a cursor this service issued; use startCursor or endCursor of a page.`,
    );
    return z.NEVER;
  });

/** Absent, null and '' all mean "not given" (`?limit=&before=` from a form, a GraphQL null). */
export const blankToUndefined = (value: unknown) =>
  value === '' || value === null ? undefined : value;

/** An optional field where a blank value counts as absent. */
export const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess(blankToUndefined, schema.optional());
