import type { ExportResult } from '@opentelemetry/core';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EncodedBatch, EncodedBatchExporter, SpanEncoder } from './encoded-span-batches.js';
import type { OtlpProtocol } from './trace-settings.js';

const encoder = (serialize: (spans: ReadableSpan[]) => Uint8Array | undefined): SpanEncoder => {
  return (spans) => serialize(spans) ?? new Uint8Array(0);
};

/**
 * Protobuf: ExportTraceServiceRequest has one field, the repeated resource_spans, so encoded
 * requests written back to back decode as one request holding all their resource_spans.
 */
const joinProtobuf = (chunks: Uint8Array[]) => Buffer.concat(chunks);

const JSON_HEAD = Buffer.from('{"resourceSpans":[');
const JSON_TAIL = Buffer.from(']}');

/** JSON: one request whose resourceSpans list is the lists of all the chunks. */
function joinJson(chunks: Uint8Array[]): Uint8Array {
  const lists: Uint8Array[] = [];
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!bytes.subarray(0, JSON_HEAD.length).equals(JSON_HEAD) || !bytes.subarray(-2).equals(JSON_TAIL))
      throw new Error('an OTLP JSON export request is not {"resourceSpans":[...]}');
    const list = bytes.subarray(JSON_HEAD.length, -JSON_TAIL.length);
    if (list.length > 0) lists.push(list);
  }
  const parts: Uint8Array[] = [JSON_HEAD];
  lists.forEach((list, index) => parts.push(...(index === 0 ? [list] : [Buffer.from(','), list])));
  parts.push(JSON_TAIL);
  return Buffer.concat(parts);
}

const FORMATS = {
  'http/protobuf': {
    contentType: 'application/x-protobuf',
    serializer: ProtobufTraceSerializer,
    join: joinProtobuf,
  },
  'http/json': { contentType: 'application/json', serializer: JsonTraceSerializer, join: joinJson },
};

/**
 * The SDK's OTLP/HTTP trace export, in two steps: `encode` turns spans into an export request with
 * the SDK's own serializer, `exporter` sends a batch of such requests joined into one. The
 * exporter reads OTEL_EXPORTER_OTLP_[TRACES_]{ENDPOINT,HEADERS,TIMEOUT,COMPRESSION,...} exactly as
 * the SDK's OTLPTraceExporter does (the same configuration and delegate).
 */
export function otlpEncodedExport(protocol: OtlpProtocol): {
  encode: SpanEncoder;
  exporter: EncodedBatchExporter;
} {
  const { contentType, serializer, join } = FORMATS[protocol];
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': contentType }),
    {
      serializeRequest: (batch: EncodedBatch) => join(batch.chunks),
      deserializeResponse: serializer.deserializeResponse,
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  return {
    encode: encoder((spans) => serializer.serializeRequest(spans)),
    exporter: {
      export: (batch: EncodedBatch, done: (result: ExportResult) => void) =>
        delegate.export(batch, done),
      shutdown: () => delegate.shutdown(),
    },
  };
}
