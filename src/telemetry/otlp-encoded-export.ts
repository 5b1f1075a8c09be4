import type { ExportResult } from '@opentelemetry/core';
import type { OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { EncodedBatch, EncodedBatchExporter, SpanEncoder } from './encoded-span-batches.js';
import type { OtlpProtocol } from './trace-settings.js';

/**
 * Protobuf: ExportTraceServiceRequest has one field, the repeated resource_spans, so encoded
 * requests written back to back decode as one request holding all their resource_spans.
 */
const joinProtobuf = (chunks: Uint8Array[]) => Buffer.concat(chunks);

const JSON_HEAD = '{"resourceSpans":[';
const JSON_TAIL = ']}';

/** JSON: one request whose resourceSpans list is the lists of all the chunks. */
function joinJson(chunks: Uint8Array[]): Uint8Array {
  const lists = chunks.map((chunk) => {
    const request = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    if (!request.startsWith(JSON_HEAD) || !request.endsWith(JSON_TAIL))
      throw new Error('an OTLP JSON export request is not {"resourceSpans":[...]}');
    return request.slice(JSON_HEAD.length, -JSON_TAIL.length);
  });
  const list = lists.filter((resourceSpans) => resourceSpans !== '').join(',');
  return Buffer.from(`${JSON_HEAD}${list}${JSON_TAIL}`);
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
 * the SDK's OTLPTraceExporter does (the same configuration and delegate); `config` overrides them
 * as that exporter's does.
 */
export function otlpEncodedExport(
  protocol: OtlpProtocol,
  config: OTLPExporterNodeConfigBase = {},
): {
  encode: SpanEncoder;
  exporter: EncodedBatchExporter;
} {
  const { contentType, serializer, join } = FORMATS[protocol];
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': contentType }),
    {
      serializeRequest: (batch: EncodedBatch) => join(batch.chunks),
      deserializeResponse: serializer.deserializeResponse,
    },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  return {
    encode: (spans: ReadableSpan[]) => serializer.serializeRequest(spans) ?? new Uint8Array(0),
    exporter: {
      export: (batch: EncodedBatch, done: (result: ExportResult) => void) =>
        delegate.export(batch, done),
      shutdown: () => delegate.shutdown(),
    },
  };
}
