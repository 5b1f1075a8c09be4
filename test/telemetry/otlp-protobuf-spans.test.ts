import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ProtobufSpanBatch } from '../../src/telemetry/otlp-protobuf-spans.js';
import { decodeTraceRequest } from '../support/otlp-protobuf.js';

type Tracer = ReturnType<BasicTracerProvider['getTracer']>;

/** Real SDK spans, as a span processor sees them end; `tracerOf` gives another scope's tracer. */
function endedSpans(
  make: (tracer: Tracer, tracerOf: (scope: string) => Tracer) => void,
  serviceName = 'gateway test',
) {
  const ended: ReadableSpan[] = [];
  const keep: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => void ended.push(span),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.instance': 7 }),
    spanProcessors: [keep],
  });
  make(provider.getTracer('publish-gateway', '1.2.3'), (scope) => provider.getTracer(scope));
  return ended;
}

function encoded(spans: ReadableSpan[]): Buffer {
  const batch = new ProtobufSpanBatch();
  for (const span of spans) batch.add(span);
  expect(batch.spans).toBe(spans.length);
  return Buffer.from(batch.request());
}

const sdkEncoded = (spans: ReadableSpan[]) =>
  Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array);

/** Each span of a request as `service.name / scope / span name`, as a collector would file it. */
const filed = (bytes: Uint8Array) =>
  decodeTraceRequest(bytes).resourceSpans.flatMap(({ resource, scopeSpans }) => {
    const service = resource.attributes.find(({ key }) => key === 'service.name')?.value;
    return scopeSpans.flatMap(({ scope, spans }) =>
      spans.map((span) => `${service?.stringValue} / ${scope.name} / ${span.name}`),
    );
  });

describe('OTLP protobuf written as spans end', () => {
  it('writes the bytes the SDK serializer writes, for spans of every shape', () => {
    const spans = endedSpans((tracer) => {
      const root = tracer.startSpan('GET /api/items/:code', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 },
      });
      const remoteParent = {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
        traceState: new TraceState('vendor=value,other=1'),
      };
      const child = tracer.startSpan(
        'fünf Wörter ✓ 🎨 and a name long enough to need a two-byte length: '.repeat(3),
        {
          kind: SpanKind.CLIENT,
          attributes: {
            negative: -42,
            huge: 2 ** 60,
            fraction: 0.25,
            notANumber: Number.NaN,
            flag: false,
            list: ['a', 'ß', ''],
            numbers: [1, -2, 3.5],
            empty: '',
            long: 'x'.repeat(300),
            unpaired: 'a\ud800b',
          },
          links: [{ context: remoteParent, attributes: { 'link.kind': 'follows' } }],
          startTime: [1_790_000_000, 999_999_999],
        },
        // A remote parent: the span's flags say so.
        { getValue: () => ({ spanContext: () => remoteParent }) } as never,
      );
      child.addEvent('cache miss', { 'cache.size': 12 }, [1_790_000_000, 5]);
      child.addEvent('plain');
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
      child.end([1_790_000_001, 0]);
      tracer.startSpan('internal').end();
      root.setStatus({ code: SpanStatusCode.OK });
      root.end();
    });
    expect(spans).toHaveLength(3);
    expect(encoded(spans).equals(sdkEncoded(spans))).toBe(true);
    // And one at a time: each span's own request.
    for (const span of spans) expect(encoded([span]).equals(sdkEncoded([span]))).toBe(true);
  });

  it('a batch of hundreds of spans: the lengths of several bytes come out right', () => {
    const spans = endedSpans((tracer) => {
      for (let index = 0; index < 600; index++)
        tracer.startSpan(`find kidlisp ${index}`, { attributes: { index } }).end();
    });
    const bytes = encoded(spans);
    expect(bytes.equals(sdkEncoded(spans))).toBe(true);
    const [resourceSpans] = decodeTraceRequest(bytes).resourceSpans;
    expect(resourceSpans?.scopeSpans[0]?.spans.map((span) => span.name)).toEqual(
      spans.map((span) => span.name),
    );
  });

  it('spans of two services and two scopes in one batch: each is filed under its own', () => {
    const spans = [
      ...endedSpans((tracer, tracerOf) => {
        tracer.startSpan('read').end();
        tracerOf('thumbnails').startSpan('render').end();
        tracer.startSpan('write').end();
      }, 'gateway one'),
      ...endedSpans((tracer) => tracer.startSpan('elsewhere').end(), 'gateway two'),
    ];
    const expected = [
      'gateway one / publish-gateway / read',
      'gateway one / publish-gateway / write',
      'gateway one / thumbnails / render',
      'gateway two / publish-gateway / elsewhere',
    ];
    // Grouped as the SDK's serializer groups them, though not in its order of groups.
    expect(filed(encoded(spans)).sort()).toEqual(expected);
    expect(filed(sdkEncoded(spans)).sort()).toEqual(expected);
  });
});
