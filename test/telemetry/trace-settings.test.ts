import { describe, expect, it } from 'vitest';
import { createGraphqlNameLabeler } from '../../src/telemetry/operation-metrics.js';
import { readTraceSettings } from '../../src/telemetry/trace-settings.js';

const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('which OTEL_* settings turn tracing on', () => {
  it('is off without an OTLP endpoint, and when the SDK or the exporter is turned off', () => {
    expect(readTraceSettings({})).toMatchObject({
      enabled: false,
      reason: 'no OTLP endpoint is set',
    });
    expect(readTraceSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toMatchObject({
      enabled: false,
    });
    expect(readTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({
      enabled: false,
    });
  });

  it('is on with either endpoint, over http/protobuf unless http/json is asked', () => {
    expect(readTraceSettings(endpoint)).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      propagators: ['tracecontext', 'baggage'],
    });
    expect(
      readTraceSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_PROPAGATORS: 'tracecontext',
      }),
    ).toEqual({ enabled: true, protocol: 'http/json', propagators: ['tracecontext'] });
  });

  it('leaves tracing off, saying why, for what it cannot follow (gRPC, other exporters and propagators)', () => {
    for (const env of [
      { ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' },
      { ...endpoint, OTEL_PROPAGATORS: 'b3' },
    ])
      expect(readTraceSettings(env)).toMatchObject({
        enabled: false,
        refused: true,
        reason: expect.stringMatching(/not offered/),
      });
  });
});

describe('GraphQL operation names on /metrics', () => {
  it('are `anonymous` when unnamed and `other` past the bound, so clients cannot multiply the series', () => {
    const label = createGraphqlNameLabeler(2);
    expect([label(undefined), label('A'), label('B'), label('C'), label('A')]).toEqual([
      'anonymous',
      'A',
      'B',
      'other',
      'A',
    ]);
  });
});
