import { diag, TraceFlags } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode, getNumberFromEnv } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Spans encoded as OTLP as they are added, at most a batch of them (src/telemetry/otlp-encoded-export.ts). */
export interface SpanBatch {
  readonly spans: number;
  add(span: ReadableSpan): void;
  /** The export request holding every span added. */
  request(): Uint8Array;
}

/** Sends one batch: an OTLP exporter of encoded batches (src/telemetry/otlp-encoded-export.ts). */
export interface SpanBatchExporter {
  /** An empty batch, in the exporter's encoding. */
  newBatch(): SpanBatch;
  export(batch: SpanBatch, done: (result: ExportResult) => void): void;
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
 * The SDK's BatchSpanProcessor, except that a span is encoded when it ends, into the batch it
 * will be exported in, not when that batch is exported: what waits for the export is bytes, and
 * the span objects die young instead of being promoted to the old generation and collected there
 * (docs/operations.md, "What tracing costs"). Same schedule, limits and export as the SDK's:
 * a batch goes out when it is full or `scheduledDelayMillis` after its first span, one export at
 * a time; past `maxQueueSize` waiting spans, ended spans are dropped and counted.
 */
export class EncodedSpanBatches implements SpanProcessor {
  /** Waiting for their export, oldest first; spans are added to the last. */
  private batches: SpanBatch[] = [];
  /** Spans waiting for their export. */
  private waiting = 0;
  private dropping = 0;
  /** Spans dropped because the queue was full, since the start. */
  droppedSpans = 0;
  private exporting = false;
  private timer: NodeJS.Timeout | undefined;
  private fullBatchNoticed = false;
  private shutDown: Promise<void> | undefined;

  constructor(
    private readonly exporter: SpanBatchExporter,
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
    let open = this.batches.at(-1);
    if (!open || open.spans >= this.limits.maxExportBatchSize) {
      open = this.exporter.newBatch();
      this.batches.push(open);
    }
    try {
      open.add(span);
    } catch (error) {
      // Never thrown at the code ending the span: the span is lost, and said so.
      diag.error('a span could not be encoded', error);
      return;
    }
    this.waiting++;
    if (open.spans >= this.limits.maxExportBatchSize && !this.fullBatchNoticed) {
      // Sent once the turn that filled it is over, not in the middle of the code ending a span.
      this.fullBatchNoticed = true;
      setImmediate(() => {
        this.fullBatchNoticed = false;
        this.scheduleExport();
      });
    } else if (!this.timer) this.scheduleExport();
  }

  forceFlush(): Promise<void> {
    return this.shutDown ?? this.exportAll();
  }

  shutdown(): Promise<void> {
    this.shutDown ??= this.exportAll().then(() => this.exporter.shutdown());
    return this.shutDown;
  }

  private scheduleExport(): void {
    const first = this.batches[0];
    if (this.exporting || !first) return;
    if (first.spans >= this.limits.maxExportBatchSize) {
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
    const count = this.batches.length;
    return Promise.all(Array.from({ length: count }, () => this.exportOne())).then(() => {});
  }

  private exportOne(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batches.shift();
    if (!batch || batch.spans === 0) return Promise.resolve();
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
