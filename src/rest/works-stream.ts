import type { WorkStreamEvent } from '../operations/events/works-hub.js';
import type { StreamFormat } from './event-stream.js';

/** One serialisation per event, shared by every stream that sends it. */
const written = new WeakMap<WorkStreamEvent, string>();

/**
 * The works stream: each event is named by its type (`event: work.published`), its `id` is its
 * cursor (events arrive in `(when, _id)` order, so each id is after the one before) and its
 * data is the event's `data`, as webhooks carry it.
 */
export const worksStreamFormat: StreamFormat<WorkStreamEvent> = {
  writer: () => (event) => {
    let text = written.get(event);
    if (text === undefined) {
      text = `id: ${event.cursor}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
      written.set(event, text);
    }
    return text;
  },
};
