import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BatchLimits, EncodedSpanBatches } from '../../src/telemetry/encoded-span-batches.js';
import { otlpEncodedExport } from '../../src/telemetry/otlp-encoded-export.js';
import type { OtlpProtocol } from '../../src/telemetry/trace-settings.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { startServeProcess } from '../support/processes.js';

const LIMITS: BatchLimits = {
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
  scheduledDelayMillis: 60_000,
  exportTimeoutMillis: 10_000,
};

describe('spans encoded as they end, exported in the batches OTEL_BSP_* describe', () => {
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });

  afterEach(async () => {
    await receiver.close();
  });

  function tracing(protocol: OtlpProtocol, limits: Partial<BatchLimits>) {
    const exporter = otlpEncodedExport(protocol, { url: `${receiver.endpoint}/v1/traces` });
    const dropped: number[] = [];
    const batches = new EncodedSpanBatches(exporter, { ...LIMITS, ...limits }, (count) =>
      dropped.push(count),
    );
    const provider = new BasicTracerProvider({ spanProcessors: [batches] });
    const tracer = provider.getTracer('test');
    /** `count` spans, each ended in a turn of the event loop of its own. */
    const endSpans = async (prefix: string, count: number) => {
      for (let index = 0; index < count; index++) {
        tracer.startSpan(`${prefix} ${index}`, { attributes: { 'span.index': index } }).end();
        await nextTurn();
      }
    };
    return { batches, provider, endSpans, dropped };
  }

  for (const protocol of ['http/protobuf', 'http/json'] as const)
    it(`${protocol}: spans encoded apart arrive whole, as one export request, once the schedule delay is over`, async () => {
      const { provider, endSpans } = tracing(protocol, { scheduledDelayMillis: 300 });
      await endSpans('turn', 4);
      expect(receiver.spansPerExport).toEqual([]);
      await receiver.waitForSpans('the delayed batch', (spans) => spans.length === 4 || undefined);
      expect(receiver.spansPerExport).toEqual([4]);
      expect(receiver.spans.map((span) => [span.name, span.attributes['span.index']])).toEqual([
        ['turn 0', 0],
        ['turn 1', 1],
        ['turn 2', 2],
        ['turn 3', 3],
      ]);
      await provider.shutdown();
    });

  it('sends a batch as soon as it is full, never more spans in one export than the batch size', async () => {
    const { provider, endSpans } = tracing('http/protobuf', { maxExportBatchSize: 3 });
    await endSpans('full', 7);
    await receiver.waitForSpans('two full batches', (spans) => spans.length === 6 || undefined);
    expect(receiver.spansPerExport).toEqual([3, 3]);
    await provider.shutdown();
    expect(receiver.spansPerExport).toEqual([3, 3, 1]);
  });

  it('past the queue size drops what ends, counts it, and exports what it kept at shutdown', async () => {
    const { batches, provider, endSpans, dropped } = tracing('http/protobuf', {
      maxQueueSize: 5,
      maxExportBatchSize: 5,
    });
    // One turn: the five spans queued are not yet a sent batch when the sixth ends.
    for (let index = 0; index < 8; index++)
      provider.getTracer('test').startSpan(`queued ${index}`).end();
    expect(batches.droppedSpans).toBe(3);
    await nextTurn();
    await receiver.waitForSpans('the full queue', (spans) => spans.length === 5 || undefined);
    await endSpans('after', 1);
    expect(dropped).toEqual([3]);
    await provider.shutdown();
    expect(receiver.spans.map((span) => span.name)).toEqual([
      'queued 0',
      'queued 1',
      'queued 2',
      'queued 3',
      'queued 4',
      'after 0',
    ]);
  });

  it('a span that cannot be encoded is lost, never thrown at the code that ends it', async () => {
    const exported: number[] = [];
    const batches = new EncodedSpanBatches(
      {
        newBatch: () => ({
          spans: 0,
          add: () => {
            throw new Error('cannot encode');
          },
          request: () => new Uint8Array(0),
        }),
        export: (batch, done) => {
          exported.push(batch.spans);
          done({ code: ExportResultCode.SUCCESS });
        },
        shutdown: async () => {},
      },
      LIMITS,
    );
    const provider = new BasicTracerProvider({ spanProcessors: [batches] });
    const span = provider.getTracer('test').startSpan('unencodable');
    expect(() => span.end()).not.toThrow();
    await provider.shutdown();
    expect(exported).toEqual([]);
  });

  it('the service reads OTEL_BSP_MAX_EXPORT_BATCH_SIZE: a request is exported in batches that small', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'encoded-batches-'));
    const service = await startServeProcess({
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
    });
    try {
      const response = await fetch(`${service.url}/api/store-kidlisp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source: '(wipe blue)' }),
      });
      expect(response.status).toBe(201);
      await receiver.waitForSpans('the publish, in batches of two', (spans) =>
        spans.find((span) => span.name === 'POST /api/store-kidlisp'),
      );
      expect(Math.max(...receiver.spansPerExport)).toBe(2);
    } finally {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
