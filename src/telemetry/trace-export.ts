import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { SERVICE_VERSION } from '../version.js';
import { batchLimitsFromEnv, EncodedSpanBatches } from './encoded-span-batches.js';
import { otlpEncodedExport } from './otlp-encoded-export.js';
import type { OtlpProtocol, Propagation } from './trace-settings.js';

export interface TraceExport {
  tracer: Tracer;
  propagator: TextMapPropagator;
  /** Exports what is still batched, then stops. */
  shutdown(): Promise<void>;
}

const propagatorOf = (name: Propagation): TextMapPropagator =>
  name === 'baggage' ? new W3CBaggagePropagator() : new W3CTraceContextPropagator();

/**
 * The tracer provider of one service: never registered as the global one. The provider reads
 * OTEL_TRACES_SAMPLER[_ARG] and the span limits, the batch processor OTEL_BSP_*, the resource
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. `onDropped` hears of spans dropped because
 * the export queue (OTEL_BSP_MAX_QUEUE_SIZE) was full.
 */
export function createTraceExport(
  protocol: OtlpProtocol,
  propagators: Propagation[],
  onDropped: (count: number) => void,
): TraceExport {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'publish-gateway',
    [ATTR_SERVICE_VERSION]: SERVICE_VERSION,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [
      new EncodedSpanBatches(otlpEncodedExport(protocol), batchLimitsFromEnv(), onDropped),
    ],
  });
  return {
    tracer: provider.getTracer('publish-gateway', SERVICE_VERSION),
    propagator: new CompositePropagator({ propagators: propagators.map(propagatorOf) }),
    shutdown: () => provider.shutdown(),
  };
}
