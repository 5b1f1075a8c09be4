import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from './otlp-protobuf.js';

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};

/** One span as an OTLP/HTTP JSON export carries it, its attributes as a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status: { code?: number } | undefined;
  links: { traceId: string; spanId: string }[];
  resource: Record<string, string | number | boolean | undefined>;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

const plainValue = (value: AnyValue) =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue;

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, plainValue(value)]));

/**
 * A collector for the tests: an HTTP server on 127.0.0.1 taking what the SDK exports to
 * `/v1/traces` over OTLP/HTTP, JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) or protobuf, decoded
 * into spans.
 * `bodies` keeps every export as received, to look for text no field may carry.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  /** How many spans each export carried, in the order they came. */
  const spansPerExport: number[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const protobuf = req.headers['content-type'] === 'application/x-protobuf';
    contentTypes.push(req.headers['content-type'] ?? '');
    bodies.push(body.toString('utf8'));
    const exported = (protobuf ? decodeTraceRequest(body) : JSON.parse(body.toString('utf8'))) as {
      resourceSpans: {
        resource?: { attributes?: KeyValue[] };
        scopeSpans: {
          spans: (Omit<ReceivedSpan, 'attributes' | 'resource' | 'links'> & {
            attributes?: KeyValue[];
            links?: { traceId: string; spanId: string }[];
          })[];
        }[];
      }[];
    };
    let count = 0;
    for (const resourceSpans of exported.resourceSpans)
      for (const scope of resourceSpans.scopeSpans)
        for (const span of scope.spans) {
          count++;
          spans.push({
            ...span,
            parentSpanId: span.parentSpanId || undefined,
            attributes: attributesOf(span.attributes),
            links: span.links ?? [],
            resource: attributesOf(resourceSpans.resource?.attributes),
          });
        }
    spansPerExport.push(count);
    if (protobuf) {
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  /** Waits until `find` finds what it looks for among the received spans. */
  async function waitForSpans<T>(
    what: string,
    find: (all: ReceivedSpan[]) => T | undefined,
    timeoutMs = 10_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find(spans);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(
          `${what}: not received within ${timeoutMs} ms; spans: ${spans.map((span) => span.name).join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    contentTypes,
    spansPerExport,
    waitForSpans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
