import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../app-error.js';

/** What Node refuses before any handler runs, in the contract's error shape. */
function refusalOf(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(
        'REQUEST_TIMEOUT',
        'The request took too long to arrive; send it again, faster.',
      );
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('HEADERS_TOO_LARGE', 'The request headers (or the URL) are too large.');
    default:
      return new AppError('INVALID_INPUT', 'The request is not valid HTTP.');
  }
}

/**
 * The server's `clientError` listener: Node's own answers (a 408 for a slow sender, 431, 400)
 * have no body; these carry the one error shape, as every other answer does. As Node does, it
 * answers only when nothing was written on the connection yet, and then closes it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const refusal = refusalOf(error);
  const body = JSON.stringify(refusal.toJSON());
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  socket.destroySoon?.();
}
