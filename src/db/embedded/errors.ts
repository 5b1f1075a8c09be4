import type { Document } from 'bson';
import { MingoError } from 'mingo/util';

/** A command failure, answered as `{ ok: 0, errmsg, code, codeName, ...extra }`. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
  }
}

export const badValue = (message: string) => new CommandError(2, 'BadValue', message);
export const failedToParse = (message: string) => new CommandError(9, 'FailedToParse', message);
export const typeMismatch = (message: string) => new CommandError(14, 'TypeMismatch', message);
export const namespaceNotFound = (ns: string) =>
  new CommandError(26, 'NamespaceNotFound', `ns does not exist: ${ns}`);
export const pathNotViable = (message: string) => new CommandError(28, 'PathNotViable', message);
export const invalidNamespace = (message: string) =>
  new CommandError(73, 'InvalidNamespace', message);

/** Features a real server has but this one does not: refused rather than answered differently. */
export const notSupported = (what: string) =>
  new CommandError(
    238,
    'NotImplemented',
    `${what} is not supported by the embedded MongoDB server`,
  );

export function duplicateKey(
  ns: string,
  index: string,
  keyPattern: Document,
  keyValue: Document,
): CommandError {
  const shown = Object.entries(keyValue)
    .map(([field, value]) => `${field}: ${JSON.stringify(value) ?? 'null'}`)
    .join(', ');
  return new CommandError(
    11000,
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${index} dup key: { ${shown} }`,
    { keyPattern, keyValue },
  );
}

/** The reply document for any error thrown while running a command. */
export function errorReply(error: unknown): Document {
  const failure =
    error instanceof CommandError
      ? error
      : error instanceof MingoError
        ? badValue(error.message)
        : new CommandError(1, 'InternalError', (error as Error)?.message ?? String(error));
  return {
    ok: 0,
    errmsg: failure.message,
    code: failure.code,
    codeName: failure.codeName,
    ...failure.extra,
  };
}

/** The `writeErrors` entry for a statement that failed inside a write command. */
export function writeError(index: number, error: CommandError): Document {
  return { index, code: error.code, errmsg: error.message, ...error.extra };
}
