import { BSON, type Document } from 'bson';
import { decodeOptions } from './documents.js';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const HEADER_BYTES = 16;
export const MAX_MESSAGE_BYTES = 48_000_000;

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/** A command as it arrived: legacy OP_QUERY (the first handshake) or OP_MSG. */
export interface Request {
  requestId: number;
  legacy: boolean;
  /** The client wants no reply (an unacknowledged write). */
  moreToCome: boolean;
  db: string;
  command: Document;
}

/** Splits a byte stream into whole messages (each starting with its int32 length). */
export class MessageFramer {
  #chunks: Buffer[] = [];
  #size = 0;

  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    const messages: Buffer[] = [];
    while (this.#size >= 4) {
      const head =
        (this.#chunks[0] as Buffer).length >= 4 ? (this.#chunks[0] as Buffer) : this.#flatten();
      const length = head.readInt32LE(0);
      if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES)
        throw new ProtocolError(`invalid message length ${length}`);
      if (this.#size < length) break;
      const all = this.#flatten();
      messages.push(all.subarray(0, length));
      this.#chunks = all.length > length ? [all.subarray(length)] : [];
      this.#size -= length;
    }
    return messages;
  }

  #flatten(): Buffer {
    const all =
      this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.#chunks = [all];
    return all;
  }
}

export function parseMessage(message: Buffer): Request {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return parseOpMsg(message, requestId);
  if (opCode === OP_QUERY) return parseOpQuery(message, requestId);
  throw new ProtocolError(`unsupported opCode ${opCode}`);
}

function readDocument(message: Buffer, offset: number): { doc: Document; end: number } {
  const size = message.readInt32LE(offset);
  if (size < 5 || offset + size > message.length)
    throw new ProtocolError('document overruns the message');
  return {
    doc: BSON.deserialize(message.subarray(offset, offset + size), decodeOptions),
    end: offset + size,
  };
}

function parseOpMsg(message: Buffer, requestId: number): Request {
  const flags = message.readUInt32LE(HEADER_BYTES);
  const end = message.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let body: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  for (let offset = HEADER_BYTES + 4; offset < end; ) {
    const kind = message[offset++];
    if (kind === 0) {
      ({ doc: body, end: offset } = readDocument(message, offset));
    } else if (kind === 1) {
      const sectionEnd = offset + message.readInt32LE(offset);
      const nameEnd = message.indexOf(0, offset + 4);
      if (sectionEnd > end || nameEnd < 0 || nameEnd >= sectionEnd)
        throw new ProtocolError('malformed document sequence');
      const identifier = message.toString('utf8', offset + 4, nameEnd);
      const docs: Document[] = [];
      for (offset = nameEnd + 1; offset < sectionEnd; ) {
        const read = readDocument(message, offset);
        docs.push(read.doc);
        offset = read.end;
      }
      sequences.push([identifier, docs]);
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body');
  for (const [name, docs] of sequences) body[name] = docs;
  return {
    requestId,
    legacy: false,
    moreToCome: (flags & MORE_TO_COME) !== 0,
    db: String(body.$db ?? 'admin'),
    command: body,
  };
}

function parseOpQuery(message: Buffer, requestId: number): Request {
  const nameEnd = message.indexOf(0, HEADER_BYTES + 4);
  if (nameEnd < 0) throw new ProtocolError('malformed OP_QUERY');
  const namespace = message.toString('utf8', HEADER_BYTES + 4, nameEnd);
  if (!namespace.endsWith('.$cmd'))
    throw new ProtocolError(`OP_QUERY is only accepted for commands, not ${namespace}`);
  const { doc } = readDocument(message, nameEnd + 1 + 8);
  const command = doc.$query && typeof doc.$query === 'object' ? (doc.$query as Document) : doc;
  return {
    requestId,
    legacy: true,
    moreToCome: false,
    db: namespace.slice(0, -'.$cmd'.length),
    command,
  };
}

/** The reply message, in the form the request came in (OP_REPLY for OP_QUERY, else OP_MSG). */
export function encodeReply(request: Request, replyId: number, reply: Document): Buffer {
  const body = BSON.serialize(reply);
  const prefix = request.legacy ? 20 : 5;
  const message = Buffer.alloc(HEADER_BYTES + prefix + body.length);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(replyId, 4);
  message.writeInt32LE(request.requestId, 8);
  message.writeInt32LE(request.legacy ? OP_REPLY : OP_MSG, 12);
  if (request.legacy) message.writeInt32LE(1, HEADER_BYTES + 16);
  message.set(body, HEADER_BYTES + prefix);
  return message;
}
