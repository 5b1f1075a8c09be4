/**
 * What the service itself decides from the OTEL_* variables; the SDK reads the rest on its own
 * (the sampler, span limits, OTEL_BSP_*, the exporter's endpoint, headers, timeout and
 * compression, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES): docs/operations.md lists them.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type TraceSettings =
  | { enabled: false; reason: string; refused?: true }
  | { enabled: true; protocol: OtlpProtocol; propagators: Propagation[] };

export type Propagation = 'tracecontext' | 'baggage';

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];
const PROPAGATIONS: readonly string[] = ['tracecontext', 'baggage'];

const refused = (reason: string): TraceSettings => ({ enabled: false, reason, refused: true });

const value = (env: NodeJS.ProcessEnv, name: string) => {
  const text = env[name]?.trim();
  return text ? text : undefined;
};

/**
 * Traces are exported only when an OTLP endpoint is set (the general one or the traces one),
 * OTEL_SDK_DISABLED is not `true` and OTEL_TRACES_EXPORTER is not `none`. gRPC is not offered:
 * a setting the service cannot follow (another protocol, exporter or propagator) leaves tracing
 * off, with its reason logged at start, rather than keep the service from starting.
 */
export function readTraceSettings(env: NodeJS.ProcessEnv): TraceSettings {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true')
    return { enabled: false, reason: 'OTEL_SDK_DISABLED is true' };
  const exporters = (value(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp')
    .split(',')
    .map((name) => name.trim());
  if (exporters.includes('none')) return { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  const unknown = exporters.filter((name) => name !== 'otlp');
  if (unknown.length > 0)
    return refused(`OTEL_TRACES_EXPORTER=${unknown.join(',')} is not offered: use otlp or none.`);
  if (
    !value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') &&
    !value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  )
    return { enabled: false, reason: 'no OTLP endpoint is set' };
  const protocol =
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf';
  if (!PROTOCOLS.includes(protocol))
    return refused(
      `OTLP protocol ${protocol} is not offered: use http/protobuf (the default) or http/json.`,
    );
  const propagators = (value(env, 'OTEL_PROPAGATORS') ?? 'tracecontext,baggage')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'none');
  const unsupported = propagators.filter((name) => !PROPAGATIONS.includes(name));
  if (unsupported.length > 0)
    return refused(
      `OTEL_PROPAGATORS=${unsupported.join(',')} is not offered: use tracecontext, baggage or none.`,
    );
  return {
    enabled: true,
    protocol: protocol as OtlpProtocol,
    propagators: propagators as Propagation[],
  };
}
