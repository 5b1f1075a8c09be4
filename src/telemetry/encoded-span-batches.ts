import { diag, TraceFlags } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode, getNumberFromEnv } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Spans already encoded as OTLP, in chunks of one or more, at most a batch of them. */
export interface EncodedBatch {
  chunks: Uint8Array[];
  spans: number;
}

/** Turns ended spans into OTLP bytes (src/telemetry/otlp-encoded-export.ts). */
export type SpanEncoder = (spans: ReadableSpan[]) => Uint8Array;

/** Sends one batch: an OTLP exporter of encoded batches (src/telemetry/otlp-encoded-export.ts). */
export interface EncodedBatchExporter {
  export(batch: EncodedBatch, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/** The SDK's batch settings, read from OTEL_BSP_* as its BatchSpanProcessor reads them. */
export interface BatchLimits {
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
}

export function batchLimitsFromEnv(): BatchLimits {
  const maxQueueSize = getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048;
  const maxExportBatchSize = getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? 512;
  if (maxExportBatchSize > maxQueueSize)
    diag.warn(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE must be at most OTEL_BSP_MAX_QUEUE_SIZE: using the queue size',
    );
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(maxExportBatchSize, maxQueueSize),
    scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY') ?? 5000,
    exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT') ?? 30_000,
  };
}

/**
 * The SDK's BatchSpanProcessor, except that a span is encoded once the turn of the event loop
 * that ended it is over, not when its batch is exported: what waits for the export is bytes, and
 * the span objects die young instead of being promoted to the old generation and collected there
 * (docs/operations.md, "What tracing costs"). Same schedule, limits and export as the SDK's:
 * a batch goes out when it is full or `scheduledDelayMillis` after its first span, one export at
 * a time; past `maxQueueSize` waiting spans, ended spans are dropped and counted.
 */
export class EncodedSpanBatches implements SpanProcessor {
  /** Ended in this turn of the event loop, not yet encoded. */
  private ended: ReadableSpan[] = [];
  private batches: EncodedBatch[] = [];
  /** Spans waiting for their export, encoded or not. */
  private waiting = 0;
  private dropping = 0;
  /** Spans dropped because the queue was full, since the start. */
  droppedSpans = 0;
  private exporting = false;
  private timer: NodeJS.Timeout | undefined;
  private shutDown: Promise<void> | undefined;

  constructor(
    private readonly encode: SpanEncoder,
    private readonly exporter: EncodedBatchExporter,
    private readonly limits: BatchLimits,
    private readonly onDropped: (count: number) => void = () => {},
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.shutDown || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.waiting >= this.limits.maxQueueSize) {
      this.dropping++;
      this.droppedSpans++;
      return;
    }
    if (this.dropping > 0) {
      this.onDropped(this.dropping);
      this.dropping = 0;
    }
    this.waiting++;
    if (this.ended.push(span) === 1) setImmediate(() => this.encodeEnded());
  }

  forceFlush(): Promise<void> {
    return this.shutDown ?? this.exportAll();
  }

  shutdown(): Promise<void> {
    this.shutDown ??= this.exportAll().then(() => this.exporter.shutdown());
    return this.shutDown;
  }

  private encodeEnded(): void {
    const { maxExportBatchSize } = this.limits;
    while (this.ended.length > 0) {
      let last = this.batches.at(-1);
      if (!last || last.spans >= maxExportBatchSize) {
        last = { chunks: [], spans: 0 };
        this.batches.push(last);
      }
      const room = maxExportBatchSize - last.spans;
      const spans = this.ended.length <= room ? this.ended : this.ended.slice(0, room);
      this.ended = spans === this.ended ? [] : this.ended.slice(room);
      last.chunks.push(this.encode(spans));
      last.spans += spans.length;
    }
    this.scheduleExport();
  }

  private scheduleExport(): void {
    if (this.exporting || this.batches.length === 0) return;
    if ((this.batches[0] as EncodedBatch).spans >= this.limits.maxExportBatchSize) {
      this.exportInTurn();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.exportInTurn(), this.limits.scheduledDelayMillis).unref();
  }

  private exportInTurn(): void {
    this.exporting = true;
    this.exportOne()
      .catch((error: unknown) => diag.error('span export failed', error))
      .finally(() => {
        this.exporting = false;
        this.scheduleExport();
      });
  }

  private exportAll(): Promise<void> {
    this.encodeEnded();
    const count = this.batches.length;
    return Promise.all(Array.from({ length: count }, () => this.exportOne())).then(() => {});
  }

  private exportOne(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batches.shift();
    if (!batch) return Promise.resolve();
    this.waiting -= batch.spans;
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(
        () => reject(new Error('span export timed out')),
        this.limits.exportTimeoutMillis,
      );
      this.exporter.export(batch, (result) => {
        clearTimeout(timeout);
        if (result.code === ExportResultCode.SUCCESS) resolve();
        else reject(result.error ?? new Error('span export failed'));
      });
    });
  }
}
