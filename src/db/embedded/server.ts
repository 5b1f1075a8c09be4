import { chmodSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Document } from 'bson';
import type { Activity } from './activity.js';
import { errorReply } from './errors.js';
import type { Logger } from './types.js';
import { encodeReply, MessageFramer, parseMessage, type Request } from './wire.js';

/** One client connection: its number, and whether it still has to authenticate. */
export interface Connection {
  id: number;
  mustAuthenticate: boolean;
  /** Set by the authentication commands. */
  auth: Document;
}

/** A reply now, or (a write) once the commit holding it is done. */
export type RequestHandler = (
  request: Request,
  connection: Connection,
) => Document | Promise<Document>;

export type Address = { host: string; port: number } | { path: string };

export interface WireServer {
  /** The TCP port, or 0 on a Unix socket. */
  port: number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

let connections = 0;

/**
 * Listens for MongoDB wire protocol connections, on TCP or on a Unix socket (made 0600); each
 * message is handled in arrival order. `authenticate`: TCP clients must authenticate first.
 */
export async function listen(
  address: Address,
  handle: RequestHandler,
  logger: Logger,
  activity: Activity,
  authenticate = false,
): Promise<WireServer> {
  const sockets = new Set<Socket>();
  let replies = 0;
  const onUnixSocket = 'path' in address;
  const server = createServer((socket) => {
    const connection: Connection = {
      id: ++connections,
      mustAuthenticate: authenticate && !onUnixSocket,
      auth: {},
    };
    const framer = new MessageFramer();
    sockets.add(socket);
    activity.connections.current++;
    activity.connections.totalCreated++;
    if (!onUnixSocket) socket.setNoDelay(true);
    // Replies go out in request order: once a reply is pending, later ones wait for it.
    let pending: Promise<void> | undefined;
    const send = (request: Request, reply: Document) => {
      if (request.moreToCome || socket.destroyed) return;
      let message: Buffer;
      try {
        message = encodeReply(request, ++replies, reply);
      } catch (error) {
        // A reply BSON cannot hold: the client gets an error for it, and the connection stays.
        message = encodeReply(request, replies, errorReply(error));
      }
      socket.write(message);
    };
    const fail = (error: unknown) => {
      logger.warn(
        { err: error, connectionId: connection.id },
        'embedded database: closing a connection after a protocol error',
      );
      socket.destroy();
    };
    const track = (next: Promise<void>) => {
      pending = next;
      next.then(() => {
        if (pending === next) pending = undefined;
      }, fail);
    };
    socket.on('data', (chunk) => {
      socket.cork();
      try {
        for (const message of framer.push(chunk)) {
          const request = parseMessage(message);
          if (!pending) {
            const reply = handle(request, connection);
            if (!(reply instanceof Promise)) {
              send(request, reply);
              continue;
            }
            track(reply.then((done) => send(request, done)));
            continue;
          }
          track(pending.then(async () => send(request, await handle(request, connection))));
        }
      } catch (error) {
        fail(error);
      } finally {
        socket.uncork();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      activity.connections.current--;
    });
  });
  if (onUnixSocket) rmSync(address.path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if (onUnixSocket) server.listen(address.path, ready);
    else server.listen(address.port, address.host, ready);
  });
  if (onUnixSocket) chmodSync(address.path, 0o600);
  return {
    port: onUnixSocket ? 0 : (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
