import { z } from 'zod';
import type { ErrorCode } from '../../errors.js';
import type { ExampleRequest } from '../../docs/examples.js';
import type { FieldDescriptions } from '../../docs/fields.js';

export interface ExampleSpec {
  title: string;
  description?: string;
  request: ExampleRequest;
  response: { status: number; body: unknown };
}

/** Old names a schema folds into its own field before validating (`melody` into `source`). */
export type LegacyFields = Record<string, { sameAs: string; description: string }>;

/** One REST route as the docs and the OpenAPI document describe it. */
export interface EndpointSpec {
  name: string;
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  /** Other paths that answer the same way (legacy names). */
  aliases?: string[];
  description: string;
  authentication: 'none' | 'optional';
  /** The zod schema the route validates its JSON body with, and what each field means. */
  body?: { schema: z.ZodType; descriptions: FieldDescriptions; legacy?: LegacyFields };
  /** The zod schema the route validates its query with. */
  query?: { schema: z.ZodType; descriptions: FieldDescriptions; legacy?: LegacyFields };
  response: {
    statuses: number[];
    description: string;
    schema: z.ZodType;
    descriptions?: FieldDescriptions;
    contentTypes?: string[];
  };
  errors: ErrorCode[];
  examples: ExampleSpec[];
  notes?: string[];
  since?: '1.0' | '1.1.0';
}

/** Failures every JSON POST route can answer, besides its own. */
export const POST_ERRORS: ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_INPUT',
  'UNAUTHENTICATED',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'DB_UNAVAILABLE',
  'INTERNAL',
];

export const publishResponseDescriptions: FieldDescriptions = {
  code: 'Short code of the published item.',
  url: 'Full URL to view (or play) the item.',
  cached: 'true when the same content already existed (deduplication); 200 instead of 201.',
};

/** What every failure answers (contract section 4); more fields may follow (`maxDuration`, `line`, ...). */
export const errorBodySchema = z.looseObject({
  error: z.string().describe('One human sentence.'),
  message: z
    .string()
    .describe('The same sentence (clients of track-media and chat read this key).'),
  code: z.string().describe('Machine code, e.g. SOURCE_TOO_LONG.'),
});
