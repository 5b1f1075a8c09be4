import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { SERVICE_VERSION } from '../version.js';
import type { OtlpProtocol, Propagation } from './trace-settings.js';

export interface TraceExport {
  tracer: Tracer;
  propagator: TextMapPropagator;
  /** Exports what is still batched, then stops. */
  shutdown(): Promise<void>;
}

async function otlpExporter(protocol: OtlpProtocol) {
  // Each exporter reads OTEL_EXPORTER_OTLP_[TRACES_]{ENDPOINT,HEADERS,TIMEOUT,COMPRESSION,...} itself.
  if (protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

const propagatorOf = (name: Propagation): TextMapPropagator =>
  name === 'baggage' ? new W3CBaggagePropagator() : new W3CTraceContextPropagator();

/**
 * The tracer provider of one service: never registered as the global one. The provider reads
 * OTEL_TRACES_SAMPLER[_ARG] and the span limits, the batch processor OTEL_BSP_*, the resource
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 */
export async function createTraceExport(
  protocol: OtlpProtocol,
  propagators: Propagation[],
): Promise<TraceExport> {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'publish-gateway',
    [ATTR_SERVICE_VERSION]: SERVICE_VERSION,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(await otlpExporter(protocol))],
  });
  return {
    tracer: provider.getTracer('publish-gateway', SERVICE_VERSION),
    propagator: new CompositePropagator({ propagators: propagators.map(propagatorOf) }),
    shutdown: () => provider.shutdown(),
  };
}
