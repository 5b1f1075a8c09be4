import { createServer } from 'node:http';
import { trace, SpanKind, ROOT_CONTEXT } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
const sink = createServer((req, res) => { req.resume(); req.on('end', () => res.end()); }).listen(0, '127.0.0.1');
await new Promise((r) => sink.once('listening', r));
const mode = process.argv[2] ?? 'export';
const exporter = mode === 'noexport' ? { export: (s, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} } : new OTLPTraceExporter({ url: `http://127.0.0.1:${sink.address().port}/v1/traces` });
const bsp = new BatchSpanProcessor(exporter, { maxQueueSize: Number(process.env.Q ?? 2048), maxExportBatchSize: Number(process.env.B ?? 512) });
const provider = new BasicTracerProvider({ spanProcessors: [bsp] });
const tracer = provider.getTracer('x', '1');
const dbAttrs = { 'db.system': 'mongodb', 'db.system.name': 'mongodb', 'db.operation.name': 'find', 'db.namespace': 'aesthetic', 'db.collection.name': 'kidlisp', 'server.address': '/tmp/x/db/mongod.sock' };
function request() {
  const server = tracer.startSpan('GET /api/items/:code', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'url.path': '/api/items/abc', 'url.scheme': 'http', 'network.protocol.version': '1.1', 'http.route': '/api/items/:code' } }, ROOT_CONTEXT);
  const c1 = trace.setSpan(ROOT_CONTEXT, server);
  const op = tracer.startSpan('getItem', { attributes: { 'operation.name': 'getItem' } }, c1);
  const c2 = trace.setSpan(c1, op);
  for (let i = 0; i < 4; i++) {
    const b = tracer.startSpan('dataloader.batch items.kidlisp', { attributes: { 'dataloader.name': 'items.kidlisp', 'dataloader.batch.size': 1 } }, c2);
    const f = tracer.startSpan('find kidlisp', { kind: SpanKind.CLIENT, attributes: dbAttrs }, trace.setSpan(c2, b));
    f.end(); b.end();
  }
  op.end();
  server.setAttribute('http.response.status_code', 200);
  server.end();
}
const N = Number(process.argv[3] ?? 20000);
// pace: 1 request per tick batch of 10, let the processor export in between
for (let i = 0; i < 2000; i++) { request(); if (i % 10 === 0) await new Promise((r) => setImmediate(r)); }
await provider.forceFlush();
const t0 = process.cpuUsage();
for (let i = 0; i < N; i++) { request(); if (i % 10 === 0) await new Promise((r) => setImmediate(r)); }
await provider.forceFlush();
const used = process.cpuUsage(t0);
console.log(mode, 'µs per request (10 spans):', ((used.user + used.system) / N).toFixed(1));
await provider.shutdown(); sink.close();
