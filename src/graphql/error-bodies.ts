import { STATUS_CODES } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { ErrorCode } from '../app-error.js';

const codeOf: Record<number, { code: ErrorCode; message: string }> = {
  404: { code: 'NOT_FOUND', message: 'Nothing is served here; GraphQL is at /graphql.' },
  405: { code: 'METHOD_NOT_ALLOWED', message: 'GraphQL is served over GET and POST.' },
  406: {
    code: 'NOT_ACCEPTABLE',
    message: 'The Accept header names no type GraphQL answers with; accept application/json.',
  },
  415: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the operation as application/json (or in the URL over GET).',
  },
};

/**
 * Yoga answers a few refusals (415, 406) with no body at all; these get the GraphQL face's error
 * shape, `{errors: [{message, extensions: {code}}]}`, like every other failure. Headers are kept
 * (a 406 lists the types it could answer with in `accept`).
 */
export function useErrorBodies(): Plugin {
  return {
    onResponse({ response, setResponse }) {
      if (response.status < 400 || response.headers.get('content-type')) return;
      const { code, message } = codeOf[response.status] ?? {
        code: 'INVALID_INPUT' as const,
        message: 'The request was refused.',
      };
      const headers = new Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      headers.delete('content-length');
      setResponse(
        new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
          status: response.status,
          statusText: STATUS_CODES[response.status] ?? '',
          headers,
        }),
      );
    },
  };
}
