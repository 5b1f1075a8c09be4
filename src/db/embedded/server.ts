import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Document } from 'bson';
import type { Logger } from './types.js';
import { encodeReply, MessageFramer, parseMessage, type Request } from './wire.js';

export type RequestHandler = (request: Request, connectionId: number) => Document;

export interface WireServer {
  port: number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/** Listens for MongoDB wire protocol connections; each message is handled in arrival order. */
export async function listen(
  host: string,
  port: number,
  handle: RequestHandler,
  logger: Logger,
): Promise<WireServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let replies = 0;
  const server = createServer((socket) => {
    const connectionId = ++connections;
    const framer = new MessageFramer();
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      socket.cork();
      try {
        for (const message of framer.push(chunk)) {
          const request = parseMessage(message);
          const reply = handle(request, connectionId);
          if (!request.moreToCome) socket.write(encodeReply(request, ++replies, reply));
        }
      } catch (error) {
        logger.warn(
          { err: error, connectionId },
          'embedded database: closing a connection after a protocol error',
        );
        socket.destroy();
      } finally {
        socket.uncork();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
