import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../support/otlp-receiver.js';
import { type CliProcess, startServeProcess } from '../support/processes.js';
import { openSse } from '../support/sse.js';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;

/** A client's trace: its traceparent header and the ids the service must continue. */
function clientTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const ofTrace = (spans: ReceivedSpan[], traceId: string) =>
  spans.filter((span) => span.traceId === traceId);

/** The server span of the client's trace: it ends last, once its response is sent. */
const serverSpan = (receiver: OtlpReceiver, traceId: string, name: string) =>
  receiver.waitForSpans(`the server span ${name}`, (spans) =>
    ofTrace(spans, traceId).find((span) => span.kind === SERVER && span.name === name),
  );

/** The spans from `span` up to the root of its trace. */
function ancestry(span: ReceivedSpan, trace: ReceivedSpan[]): ReceivedSpan[] {
  const chain = [span];
  for (let at = span; at.parentSpanId; ) {
    const parent = trace.find((candidate) => candidate.spanId === at.parentSpanId);
    if (!parent) break;
    chain.push(parent);
    at = parent;
  }
  return chain;
}

describe('traces exported over OTLP/HTTP by `publish-gateway serve`', () => {
  let receiver: OtlpReceiver;
  let service: CliProcess & { url: string };
  let dataDir: string;

  /** A client of the service's embedded database, as another writer of the same data. */
  const connectToServiceDatabase = async () => {
    const { uri } = JSON.parse(await readFile(join(dataDir, 'db', 'endpoint.json'), 'utf8')) as {
      uri: string;
    };
    return new MongoClient(uri).connect();
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'traces-'));
    service = await startServeProcess({
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
  });

  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const publish = async (source: string, traceparent: string) => {
    const response = await fetch(`${service.url}/api/store-kidlisp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ source }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { code: string }).code;
  };

  it('a REST publish continues the client trace: the route template, its operation, the insert; never the source', async () => {
    const client = clientTrace();
    const secret = `rest-source-${randomBytes(6).toString('hex')}`;
    await publish(`(wipe "${secret}")`, client.traceparent);
    await serverSpan(receiver, client.traceId, 'POST /api/store-kidlisp');

    const insert = await receiver.waitForSpans('the insert of the publish', (spans) =>
      ofTrace(spans, client.traceId).find(
        (span) => span.kind === CLIENT && span.attributes['db.operation.name'] === 'insert',
      ),
    );
    const trace = ofTrace(receiver.spans, client.traceId);
    const server = trace.find((span) => span.kind === SERVER);
    expect(server).toMatchObject({
      name: 'POST /api/store-kidlisp',
      parentSpanId: client.spanId,
      attributes: {
        'http.route': '/api/store-kidlisp',
        'http.request.method': 'POST',
        'http.response.status_code': 201,
      },
      resource: { 'service.name': 'gateway-under-test' },
    });
    const chain = ancestry(insert, trace).map((span) => span.name);
    expect(chain).toContain('publishKidlisp');
    expect(chain.at(-1)).toBe('POST /api/store-kidlisp');
    expect(insert.attributes).toMatchObject({
      'db.system': 'mongodb',
      'db.system.name': 'mongodb',
    });
    expect(typeof insert.attributes['db.collection.name']).toBe('string');
    expect(receiver.bodies.join('\n')).not.toContain(secret);
  });

  // Three runs: interpreted, compiled, then prepared (src/graphql/prepared-run.ts); each is traced alike.
  it.each([
    1, 2, 3,
  ])('a GraphQL query continues the client trace: HTTP server, then the named operation, then MongoDB commands (run %i)', async () => {
    const code = await publish(
      `(ink "graphql-${randomBytes(4).toString('hex')}")`,
      clientTrace().traceparent,
    );
    const client = clientTrace();
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: client.traceparent },
      body: JSON.stringify({
        query: 'query ItemPage($code: String!) { item(code: $code) { code } }',
        variables: { code },
      }),
    });
    expect((await response.json()).data).toEqual({ item: { code } });
    await serverSpan(receiver, client.traceId, 'POST /graphql');

    const command = await receiver.waitForSpans('a MongoDB command of the query', (spans) =>
      ofTrace(spans, client.traceId).find(
        (span) => span.kind === CLIENT && span.attributes['db.system'] === 'mongodb',
      ),
    );
    const trace = ofTrace(receiver.spans, client.traceId);
    const chain = ancestry(command, trace);
    const server = chain.at(-1);
    expect(server).toMatchObject({
      name: 'POST /graphql',
      kind: SERVER,
      parentSpanId: client.spanId,
      attributes: { 'http.route': '/graphql' },
    });
    const operation = chain.find((span) => span.name === 'query ItemPage');
    expect(operation?.attributes).toMatchObject({
      'graphql.operation.name': 'ItemPage',
      'graphql.operation.type': 'query',
    });
    expect(chain.indexOf(operation as ReceivedSpan)).toBeLessThan(chain.length - 1);
    // Between them, the resolver's operation and the DataLoader batch that sent the command.
    expect(chain.map((span) => span.name)).toEqual(
      expect.arrayContaining(['item', expect.stringMatching(/^dataloader\.batch items\./)]),
    );
    expect(command.attributes['db.operation.name']).toEqual(expect.any(String));
  });

  it('an MCP tool call is a span below its /mcp request, with the commands it sent below it', async () => {
    const code = await publish(
      `(ink "mcp-${randomBytes(4).toString('hex')}")`,
      clientTrace().traceparent,
    );
    const client = clientTrace();
    const mcp = new Client({ name: 'traces-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', service.url), {
        requestInit: { headers: { traceparent: client.traceparent } },
      }),
    );
    const result = await mcp.callTool({ name: 'get_item', arguments: { code } });
    await mcp.close();
    expect(result.isError).not.toBe(true);
    await serverSpan(receiver, client.traceId, 'POST /mcp');

    const command = await receiver.waitForSpans('a MongoDB command of the tool', (spans) => {
      const trace = ofTrace(spans, client.traceId);
      return trace.find(
        (span) =>
          span.kind === CLIENT &&
          ancestry(span, trace).some((above) => above.name === 'tools/call get_item'),
      );
    });
    const chain = ancestry(command, ofTrace(receiver.spans, client.traceId));
    expect(chain.find((span) => span.name === 'tools/call get_item')?.attributes).toMatchObject({
      'gen_ai.tool.name': 'get_item',
    });
    expect(chain.at(-1)).toMatchObject({
      name: 'POST /mcp',
      kind: SERVER,
      parentSpanId: client.spanId,
    });
  });

  it('a traced publish reaches what the process keeps: the feed read a moment before lists the new work at once', async () => {
    const before = await fetch(`${service.url}/feed.json`, {
      headers: { traceparent: clientTrace().traceparent },
    });
    expect(before.status).toBe(200);
    await before.json();
    const code = await publish(
      `(ink "feed-${randomBytes(4).toString('hex')}")`,
      clientTrace().traceparent,
    );
    const after = await fetch(`${service.url}/feed.json`, {
      headers: { traceparent: clientTrace().traceparent },
    });
    const feed = (await after.json()) as { items: { id: string }[] };
    expect(feed.items.map((item) => item.id)).toContainEqual(expect.stringMatching(`/\\$${code}$`));
  });

  it('a search term never appears in what is exported: URLs go without their query', async () => {
    const term = `needle${randomBytes(5).toString('hex')}`;
    const client = clientTrace();
    const rest = await fetch(`${service.url}/api/items?search=${term}`, {
      headers: { traceparent: client.traceparent },
    });
    expect(rest.status).toBe(200);
    const graphql = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: client.traceparent },
      body: JSON.stringify({
        query: `{ published(search: "${term}") { edges { node { code } } } chatMessages(search: "${term}") { edges { node { text } } } }`,
      }),
    });
    expect(graphql.status).toBe(200);
    const server = await receiver.waitForSpans('the REST search', (spans) =>
      ofTrace(spans, client.traceId).find((span) => span.name === 'GET /api/items'),
    );
    expect(server.attributes['url.path']).toBe('/api/items');
    await receiver.waitForSpans('the GraphQL search', (spans) =>
      ofTrace(spans, client.traceId).find((span) => span.name === 'query'),
    );
    const searches = await receiver.waitForSpans('the searches, by their length', (spans) => {
      const found = ofTrace(spans, client.traceId).filter(
        (span) => span.attributes['search.term.length'] !== undefined,
      );
      return found.length >= 3 ? found : undefined;
    });
    expect(searches.map((span) => span.name).sort()).toEqual([
      'chatMessages',
      'published',
      'searchWorks',
    ]);
    for (const span of searches) expect(span.attributes['search.term.length']).toBe(term.length);
    // The chat search waited for its slot (CHAT_SEARCH_CONCURRENCY) and ran in it.
    const trace = ofTrace(receiver.spans, client.traceId);
    expect(trace.map((span) => span.name)).toEqual(
      expect.arrayContaining(['chat.search wait', 'chat.search']),
    );
    expect(receiver.bodies.join('\n')).not.toContain(term);
  });

  it('a log line written during a traced request carries its trace id', async () => {
    const client = clientTrace();
    // Not JSON-RPC: the MCP endpoint rejects it, and says so in the log.
    const response = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        traceparent: client.traceparent,
      },
      body: JSON.stringify({ not: 'json-rpc' }),
    });
    expect(response.status).toBe(400);
    const line = await receiver.waitForSpans('the log line', () =>
      service
        .output()
        .split('\n')
        .find((text) => text.includes(client.traceId)),
    );
    expect(JSON.parse(line)).toMatchObject({
      trace_id: client.traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  it("a GraphQL resolver's unexpected error is logged with the trace and the operation's span", async () => {
    // A record the reference's writers could leave: its `when` is no date, so `when` cannot be served.
    const mongo = await connectToServiceDatabase();
    try {
      await mongo
        .db('aesthetic')
        .collection('kidlisp')
        .insertOne({ code: 'brk', source: '(wipe red)', hash: 'brk-hash', when: 'yesterday' });
    } finally {
      await mongo.close();
    }
    const unexpectedLines = () =>
      service
        .output()
        .split('\n')
        .filter((text) => text.includes('unexpected error'));
    const before = unexpectedLines().length;
    const client = clientTrace();
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: client.traceparent },
      body: JSON.stringify({ query: 'query Broken { item(code: "brk") { code when } }' }),
    });
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors.map((error) => error.extensions.code)).toEqual(['INTERNAL']);

    const operation = await receiver.waitForSpans('the operation span', (spans) =>
      ofTrace(spans, client.traceId).find((span) => span.name === 'query Broken'),
    );
    const logged = await receiver.waitForSpans('the unexpected error line', () =>
      unexpectedLines().find((text) => text.includes(client.traceId)),
    );
    expect(JSON.parse(logged)).toMatchObject({
      msg: 'unexpected error',
      trace_id: client.traceId,
      span_id: operation.spanId,
    });
    // Logged once, not again when Yoga masks it.
    expect(unexpectedLines().length - before).toBe(1);
  });

  it('a live stream ends its request span as it starts, then each delivery is a span linked to it', async () => {
    const client = clientTrace();
    const stream = await openSse(`${service.url}/api/chat-messages/stream`, {
      headers: { traceparent: client.traceparent },
    });
    const request = await serverSpan(receiver, client.traceId, 'GET /api/chat-messages/stream');
    expect(request.attributes['http.route']).toBe('/api/chat-messages/stream');

    // A message written straight into the service's embedded database, as the chat server would.
    const mongo = await connectToServiceDatabase();
    try {
      const text = `live-${randomBytes(4).toString('hex')}`;
      await mongo
        .db('aesthetic')
        .collection('chat-system')
        .insertOne({ _id: new ObjectId(), text, when: new Date() });
      const deliveries = await receiver.waitForSpans(
        'a delivery linked to the request',
        (spans) => {
          const found = spans.filter(
            (span) =>
              span.name === 'chat.live deliver' &&
              span.links.some((link) => link.spanId === request.spanId),
          );
          return found.length >= 1 ? found : undefined;
        },
      );
      expect(stream.events.some((event) => event.data.includes(text))).toBe(true);
      for (const delivery of deliveries) {
        expect(delivery.kind).toBe(PRODUCER);
        expect(delivery.traceId).not.toBe(client.traceId);
        expect(delivery.links[0]?.traceId).toBe(client.traceId);
      }
      expect(receiver.bodies.join('\n')).not.toContain(text);
    } finally {
      stream.close();
      await mongo.close();
    }
  });
});

describe('traces over OTLP/HTTP protobuf, the default protocol', () => {
  it('posts protobuf to <endpoint>/v1/traces, with the request span in it', async () => {
    const receiver = await startOtlpReceiver();
    const dataDir = await mkdtemp(join(tmpdir(), 'traces-protobuf-'));
    const service = await startServeProcess({
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    try {
      const response = await fetch(`${service.url}/healthz`);
      expect(response.status).toBe(200);
      await receiver.waitForSpans('a protobuf export of GET /healthz', () =>
        receiver.bodies.find((body) => body.includes('GET /healthz')),
      );
      expect(receiver.contentTypes).toContain('application/x-protobuf');
    } finally {
      await service.stop();
      await receiver.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
