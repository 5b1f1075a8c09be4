import type { Attributes, AttributeValue, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import {
  FIXED32,
  FIXED64,
  LENGTH_DELIMITED,
  ProtobufWriter,
  TWO_TO_32,
  VARINT,
} from './protobuf-writer.js';

/*
 * OTLP's ExportTraceServiceRequest in protobuf (opentelemetry-proto: collector/trace/v1 and
 * trace/v1), written field for field as the SDK's ProtobufTraceSerializer writes it, so that a
 * batch of spans from one resource and scope comes out byte for byte the same
 * (test/telemetry/otlp-protobuf-spans.test.ts). It differs in how it works: each span is written
 * once, as it ends, into its batch's buffer; ids go from hex to bytes in place; the resource and
 * scope are written once per batch.
 */

/** The span flags the SDK sends: the trace flags, and whether the parent's remoteness is known. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

const spanFlags = (context: SpanContext, remote: boolean | undefined) =>
  (context.traceFlags & 0xff) | HAS_IS_REMOTE | (remote ? IS_REMOTE : 0);

const TWO_TO_63 = 2 ** 63;
/** 1e9 = 1953125 × 2^9: seconds × 1953125 stays an exact integer until the year 2116. */
const NANOS_PER_SECOND_ODD = 1_953_125;
const TWO_TO_23 = 0x80_0000;

/** An HrTime [seconds, nanoseconds] as fixed64 nanoseconds since the epoch. */
function writeTime(writer: ProtobufWriter, [seconds, nanos]: HrTime): void {
  const scaled = seconds * NANOS_PER_SECOND_ODD;
  // nanos = scaled × 2^9 + nanos: its low 32 bits come from scaled's low 23.
  const low = (scaled % TWO_TO_23) * 512 + nanos;
  const carry = low >= TWO_TO_32 ? 1 : 0;
  writer.fixed64(low - carry * TWO_TO_32, Math.floor(scaled / TWO_TO_23) + carry);
}

/** AnyValue: the oneof field its type picks, as the SDK picks it. */
function writeAnyValue(writer: ProtobufWriter, value: unknown): void {
  if (typeof value === 'string') {
    writer.tag(1, LENGTH_DELIMITED);
    writer.string(value);
  } else if (typeof value === 'boolean') {
    writer.tag(2, VARINT);
    writer.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -TWO_TO_63 && value < TWO_TO_63) {
      writer.tag(3, VARINT);
      writer.int64(value);
    } else {
      writer.tag(4, FIXED64);
      writer.double(value);
    }
  } else if (value instanceof Uint8Array) {
    writer.tag(7, LENGTH_DELIMITED);
    writer.varint(value.length);
    writer.raw(value);
  } else if (Array.isArray(value)) {
    writer.tag(5, LENGTH_DELIMITED);
    const list = writer.openLength(1);
    for (const item of value) {
      writer.tag(1, LENGTH_DELIMITED);
      const itemStart = writer.openLength(1);
      writeAnyValue(writer, item);
      writer.closeLength(itemStart, 1);
    }
    writer.closeLength(list, 1);
  } else if (typeof value === 'object' && value !== null) {
    writer.tag(6, LENGTH_DELIMITED);
    const list = writer.openLength(1);
    writeKeyValues(writer, value as Record<string, unknown>, 1);
    writer.closeLength(list, 1);
  }
}

/** Each own property of `attributes` as a KeyValue in field `field`. */
function writeKeyValues(
  writer: ProtobufWriter,
  attributes: Record<string, AttributeValue | unknown>,
  field: number,
): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    writer.tag(field, LENGTH_DELIMITED);
    const pair = writer.openLength(1);
    writer.tag(1, LENGTH_DELIMITED);
    writer.string(key);
    writer.tag(2, LENGTH_DELIMITED);
    const value = writer.openLength(1);
    writeAnyValue(writer, attributes[key]);
    writer.closeLength(value, 1);
    writer.closeLength(pair, 1);
  }
}

function writeEvent(writer: ProtobufWriter, event: TimedEvent): void {
  writer.tag(11, LENGTH_DELIMITED);
  const start = writer.openLength(1);
  writer.tag(1, FIXED64);
  writeTime(writer, event.time);
  writer.tag(2, LENGTH_DELIMITED);
  writer.string(event.name);
  if (event.attributes) writeKeyValues(writer, event.attributes, 3);
  writer.tag(4, VARINT);
  writer.varint(event.droppedAttributesCount ?? 0);
  writer.closeLength(start, 1);
}

/** A span context's trace_id, span_id and trace_state: fields 1 to 3 of a Span and of a Link alike. */
function writeContext(writer: ProtobufWriter, context: SpanContext): void {
  writer.tag(1, LENGTH_DELIMITED);
  writer.hexBytes(context.traceId);
  writer.tag(2, LENGTH_DELIMITED);
  writer.hexBytes(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    writer.tag(3, LENGTH_DELIMITED);
    writer.string(traceState);
  }
}

function writeLink(writer: ProtobufWriter, link: Link): void {
  writer.tag(13, LENGTH_DELIMITED);
  const start = writer.openLength(1);
  const { context } = link;
  writeContext(writer, context);
  if (link.attributes) writeKeyValues(writer, link.attributes, 4);
  writer.tag(5, VARINT);
  writer.varint(link.droppedAttributesCount ?? 0);
  writer.tag(6, FIXED32);
  writer.fixed32(spanFlags(context, context.isRemote));
  writer.closeLength(start, 1);
}

/** One Span, as ScopeSpans' field 2. */
export function writeSpan(writer: ProtobufWriter, span: ReadableSpan): void {
  writer.tag(2, LENGTH_DELIMITED);
  const start = writer.openLength(2);
  const context = span.spanContext();
  writeContext(writer, context);
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    writer.tag(4, LENGTH_DELIMITED);
    writer.hexBytes(parent.spanId);
  }
  writer.tag(5, LENGTH_DELIMITED);
  writer.string(span.name);
  // OTLP's SpanKind counts from SPAN_KIND_UNSPECIFIED = 0; the API's from INTERNAL = 0.
  writer.tag(6, VARINT);
  writer.varint(span.kind + 1);
  writer.tag(7, FIXED64);
  writeTime(writer, span.startTime);
  writer.tag(8, FIXED64);
  writeTime(writer, span.endTime);
  writeKeyValues(writer, span.attributes, 9);
  writer.tag(10, VARINT);
  writer.varint(span.droppedAttributesCount);
  for (const event of span.events) writeEvent(writer, event);
  writer.tag(12, VARINT);
  writer.varint(span.droppedEventsCount);
  for (const link of span.links) writeLink(writer, link);
  writer.tag(14, VARINT);
  writer.varint(span.droppedLinksCount);
  writer.tag(15, LENGTH_DELIMITED);
  const status = writer.openLength(1);
  if (span.status.message) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(span.status.message);
  }
  writer.tag(3, VARINT);
  writer.varint(span.status.code);
  writer.closeLength(status, 1);
  writer.tag(16, FIXED32);
  writer.fixed32(spanFlags(context, parent?.isRemote));
  writer.closeLength(start, 2);
}

/** The spans of one resource and instrumentation scope, written as they are added. */
interface ScopeGroup {
  resource: Resource;
  scope: InstrumentationScope;
  spans: ProtobufWriter;
}

function writeResource(writer: ProtobufWriter, resource: Resource): void {
  writer.tag(1, LENGTH_DELIMITED);
  const start = writer.openLength(2);
  writeKeyValues(writer, resource.attributes as Attributes, 1);
  writer.tag(2, VARINT);
  writer.varint(0);
  writer.closeLength(start, 2);
}

function writeScope(writer: ProtobufWriter, scope: InstrumentationScope): void {
  writer.tag(1, LENGTH_DELIMITED);
  const start = writer.openLength(1);
  writer.tag(1, LENGTH_DELIMITED);
  writer.string(scope.name);
  if (scope.version) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(scope.version);
  }
  writer.closeLength(start, 1);
}

/** Spans encoded as OTLP protobuf as they are added; `request()` is their export request. */
export class ProtobufSpanBatch {
  spans = 0;
  private groups: ScopeGroup[] = [];

  add(span: ReadableSpan): void {
    const { resource, instrumentationScope: scope } = span;
    let group = this.groups.find((each) => each.resource === resource && each.scope === scope);
    if (!group) {
      group = { resource, scope, spans: new ProtobufWriter() };
      this.groups.push(group);
    }
    const before = group.spans.at;
    try {
      writeSpan(group.spans, span);
    } catch (error) {
      // Nothing half-written stays in the batch.
      group.spans.at = before;
      throw error;
    }
    this.spans++;
  }

  /** ExportTraceServiceRequest: a ResourceSpans for each resource and scope the spans came from. */
  request(): Uint8Array {
    const writer = new ProtobufWriter(
      this.groups.reduce((size, group) => size + group.spans.at, 1024),
    );
    for (const { resource, scope, spans } of this.groups) {
      writer.tag(1, LENGTH_DELIMITED);
      const resourceSpans = writer.openLength(3);
      writeResource(writer, resource);
      writer.tag(2, LENGTH_DELIMITED);
      const scopeSpans = writer.openLength(3);
      writeScope(writer, scope);
      writer.raw(spans.written());
      if (scope.schemaUrl) {
        writer.tag(3, LENGTH_DELIMITED);
        writer.string(scope.schemaUrl);
      }
      writer.closeLength(scopeSpans, 3);
      if (resource.schemaUrl) {
        writer.tag(3, LENGTH_DELIMITED);
        writer.string(resource.schemaUrl);
      }
      writer.closeLength(resourceSpans, 3);
    }
    return writer.written();
  }
}
