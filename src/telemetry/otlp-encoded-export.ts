import type { ExportResult } from '@opentelemetry/core';
import type { OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanBatch, SpanBatchExporter } from './encoded-span-batches.js';
import { ProtobufSpanBatch } from './otlp-protobuf-spans.js';
import type { OtlpProtocol } from './trace-settings.js';

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

/** Spans encoded as OTLP JSON as they are added, each by the SDK's serializer. */
class JsonSpanBatch implements SpanBatch {
  private chunks: Uint8Array[] = [];

  get spans(): number {
    return this.chunks.length;
  }

  add(span: ReadableSpan): void {
    const request = JsonTraceSerializer.serializeRequest([span]);
    // Refused here, the span alone is lost (src/telemetry/encoded-span-batches.ts), not its batch.
    if (!request) throw new Error('the OTLP JSON serializer wrote nothing for a span');
    this.chunks.push(request);
  }

  request(): Uint8Array {
    return joinJson(this.chunks);
  }
}

const FORMATS = {
  'http/protobuf': {
    contentType: 'application/x-protobuf',
    newBatch: (): SpanBatch => new ProtobufSpanBatch(),
    deserializeResponse: ProtobufTraceSerializer.deserializeResponse,
  },
  'http/json': {
    contentType: 'application/json',
    newBatch: (): SpanBatch => new JsonSpanBatch(),
    deserializeResponse: JsonTraceSerializer.deserializeResponse,
  },
};

/**
 * The SDK's OTLP/HTTP trace export, in two steps: a batch encodes spans as they are added (the
 * protobuf one as the SDK's serializer would, src/telemetry/otlp-protobuf-spans.ts; the JSON one
 * with that serializer), and the exporter sends a batch's request. It reads
 * OTEL_EXPORTER_OTLP_[TRACES_]{ENDPOINT,HEADERS,TIMEOUT,COMPRESSION,...} exactly as the SDK's
 * OTLPTraceExporter does (the same configuration and delegate); `config` overrides them as that
 * exporter's does.
 */
export function otlpEncodedExport(
  protocol: OtlpProtocol,
  config: OTLPExporterNodeConfigBase = {},
): SpanBatchExporter {
  const { contentType, newBatch, deserializeResponse } = FORMATS[protocol];
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': contentType }),
    { serializeRequest: (batch: SpanBatch) => batch.request(), deserializeResponse },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  return {
    newBatch,
    export: (batch: SpanBatch, done: (result: ExportResult) => void) =>
      delegate.export(batch, done),
    shutdown: () => delegate.shutdown(),
  };
}
