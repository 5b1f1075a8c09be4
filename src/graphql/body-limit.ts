import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const tooLarge = () =>
  new GraphQLError('Request body too large', {
    extensions: { http: { status: 413 }, code: 'REQUEST_ENTITY_TOO_LARGE' },
  });

/** A single non-negative integer, as Yoga accepts it (`1, 2` or `-1` is refused). */
export const CONTENT_LENGTH = /^\d+$/;

/**
 * The request body limit (Yoga's `maxRequestBodySize`, with the same errors: 413
 * REQUEST_ENTITY_TOO_LARGE, 400 for a malformed Content-Length), paying for a counting stream
 * only where it can catch something. Yoga pipes every body through one; but with a valid
 * Content-Length, node:http hands over exactly that many bytes (and refuses a request that also
 * says Transfer-Encoding), so the header check is the whole check. Only a chunked body, whose
 * size is known once read, is counted as it arrives. Mount it after every request parser.
 */
export function useBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const contentLength = request.headers.get('content-length');
      if (contentLength !== null) {
        if (!CONTENT_LENGTH.test(contentLength))
          throw new GraphQLError('Content-Length header is invalid.', {
            extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
          });
        if (Number(contentLength) > limit) throw tooLarge();
        return;
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser((original) => {
        const body = original.body;
        if (!body) return parse(original);
        let read = 0;
        // As Yoga does: a native stream needs the native TransformStream, not the ponyfill.
        const Transform =
          body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
        const counted = body.pipeThrough(
          new Transform<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              read += chunk.byteLength;
              if (read > limit) controller.error(tooLarge());
              else controller.enqueue(chunk);
            },
          }),
        );
        return parse(
          new fetchAPI.Request(original.url, {
            method: original.method,
            headers: original.headers,
            signal: original.signal,
            body: counted,
            // @ts-expect-error Node's fetch needs it for a streamed body; the DOM types lack it
            duplex: 'half',
          }),
        );
      });
    },
  };
}
