import { decodeGlobalID } from '@pothos/plugin-relay';
import { isMessageId } from '../operations/chat/find-messages.js';
import { ITEM_KINDS, type ItemKind } from '../operations/items/index.js';
import { typeNames } from './items.js';

/** What a global id names; null for an id that names nothing this service has a type for. */
export type NodeRef =
  | { type: 'item'; kind: ItemKind; code: string }
  | { type: 'chat'; id: string }
  | { type: 'author'; handle: string };

const kindOfType = new Map(ITEM_KINDS.map((kind) => [typeNames[kind], kind]));

/**
 * Items and authors have `base64("<Type>:<key>")` (Pothos' encoding); a chat message keeps the
 * id the chat gave it (an ObjectId's 24 hex digits, never a base64 of a type name), so its
 * `id` means what it always did, and REST's.
 */
export function parseGlobalId(id: string): NodeRef | null {
  if (isMessageId(id)) return { type: 'chat', id };
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(id);
  } catch {
    return null;
  }
  if (decoded.typename === 'Author') return { type: 'author', handle: decoded.id };
  const kind = kindOfType.get(decoded.typename);
  return kind ? { type: 'item', kind, code: decoded.id } : null;
}
