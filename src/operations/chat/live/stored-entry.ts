import type { Document, ObjectId } from 'mongodb';
import type { ChatEntry } from '../chat-entry.js';
import type { ChatChannel } from '../inputs.js';

/** A stored chat document (as the driver returns it) as an entry of its channel. */
export function storedEntry(doc: Document, instance: ChatChannel): ChatEntry {
  return {
    _id: doc._id as ObjectId,
    id: String(doc._id),
    user: typeof doc.user === 'string' && doc.user !== '' ? doc.user : undefined,
    text: typeof doc.text === 'string' ? doc.text : '',
    when: doc.when instanceof Date ? doc.when : new Date(0),
    instance,
  };
}
