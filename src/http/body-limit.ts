import { AppError } from '../app-error.js';
import { formatBytes } from '../domain/format.js';

/** The largest request body any face accepts (docs/contract.md, Limits: 413 above it). */
export const MAX_BODY_BYTES = 1_048_576;

export const payloadTooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${formatBytes(MAX_BODY_BYTES)}.`,
    {
      maxBytes: MAX_BODY_BYTES,
    },
  );
