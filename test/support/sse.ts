/** One Server-Sent Event as a client sees it. */
export interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event received so far, in order (comments aside). */
  events: SseEvent[];
  /** Comment lines received so far (heartbeats, pings). */
  comments: string[];
  /** Settles when the server ends the stream (or the client closes it). */
  ended: Promise<void>;
  close(): void;
}

/** Splits a text/event-stream into events, as EventSource does (field names, multi-line data). */
function parser(onEvent: (event: SseEvent) => void, onComment: (text: string) => void) {
  let buffer = '';
  let current: { event?: string; id?: string; data: string[] } = { data: [] };
  return (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (current.data.length > 0 || current.event)
          onEvent({
            event: current.event ?? 'message',
            ...(current.id !== undefined ? { id: current.id } : {}),
            data: current.data.join('\n'),
          });
        current = { data: [] };
        continue;
      }
      if (line.startsWith(':')) {
        onComment(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') current.data.push(value);
      else if (field === 'event') current.event = value;
      else if (field === 'id') current.id = value;
    }
  };
}

/**
 * Opens a stream with fetch and reads it in the background. Resolves once the answer's headers
 * arrived (for this service: once the subscriber is registered and its source is ready).
 */
export async function openSse(url: string, init: RequestInit = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    ...init,
    headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string>) },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const feed = parser(
    (event) => events.push(event),
    (text) => comments.push(text),
  );
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended,
    close: () => controller.abort(),
  };
}

/** A GraphQL subscription over SSE (graphql-sse, distinct connections mode): POST with Accept: text/event-stream. */
export function subscribeGraphql(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<SseStream> {
  return openSse(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}

/** The `data` of every `next` event of a GraphQL subscription, parsed. */
export const graphqlResults = (stream: SseStream) =>
  stream.events
    .filter((event) => event.event === 'next')
    .map(
      (event) =>
        JSON.parse(event.data) as {
          data?: Record<string, any> | null;
          errors?: { message: string; extensions?: Record<string, any> }[];
        },
    );
