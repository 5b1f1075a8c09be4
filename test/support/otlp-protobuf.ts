/**
 * Reads an OTLP/HTTP protobuf ExportTraceServiceRequest (opentelemetry-proto's trace_service.proto
 * and trace.proto) into the JSON shape an http/json export has, for the fields the tests read:
 * resource and span attributes, scope names, ids, name, kind, parent, status and links.
 */

type Fields = Map<number, (bigint | Uint8Array)[]>;

/** The fields of one message by number: varints and fixed numbers as bigints, the rest as bytes. */
function fieldsOf(bytes: Uint8Array): Fields {
  const fields: Fields = new Map();
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++] as number;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  const fixed = (size: number) => {
    let value = 0n;
    for (let index = size - 1; index >= 0; index--)
      value = (value << 8n) | BigInt(bytes[at + index] as number);
    at += size;
    return value;
  };
  while (at < bytes.length) {
    const tag = Number(varint());
    const wireType = tag & 7;
    let value: bigint | Uint8Array;
    if (wireType === 0) value = varint();
    else if (wireType === 1) value = fixed(8);
    else if (wireType === 5) value = fixed(4);
    else if (wireType === 2) {
      const length = Number(varint());
      value = bytes.subarray(at, at + length);
      at += length;
    } else throw new Error(`protobuf wire type ${wireType} is not read here`);
    const number = tag >>> 3;
    fields.set(number, [...(fields.get(number) ?? []), value]);
  }
  return fields;
}

const all = (fields: Fields, number: number) => (fields.get(number) ?? []) as Uint8Array[];
const one = (fields: Fields, number: number) => fields.get(number)?.[0];
const text = (value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : undefined;
const hex = (value: unknown) =>
  value instanceof Uint8Array && value.length > 0 ? Buffer.from(value).toString('hex') : undefined;

function anyValue(bytes: Uint8Array) {
  const fields = fieldsOf(bytes);
  if (fields.has(1)) return { stringValue: text(one(fields, 1)) };
  if (fields.has(2)) return { boolValue: one(fields, 2) === 1n };
  if (fields.has(3)) return { intValue: String(BigInt.asIntN(64, one(fields, 3) as bigint)) };
  return {};
}

const attributes = (fields: Fields, number: number) =>
  all(fields, number).map((keyValue) => {
    const pair = fieldsOf(keyValue);
    const value = one(pair, 2);
    return { key: text(one(pair, 1)) ?? '', value: value ? anyValue(value as Uint8Array) : {} };
  });

function span(bytes: Uint8Array) {
  const fields = fieldsOf(bytes);
  const status = one(fields, 15);
  return {
    traceId: hex(one(fields, 1)) ?? '',
    spanId: hex(one(fields, 2)) ?? '',
    parentSpanId: hex(one(fields, 4)),
    name: text(one(fields, 5)) ?? '',
    kind: Number(one(fields, 6) ?? 0n),
    attributes: attributes(fields, 9),
    links: all(fields, 13).map((link) => {
      const linkFields = fieldsOf(link);
      return { traceId: hex(one(linkFields, 1)) ?? '', spanId: hex(one(linkFields, 2)) ?? '' };
    }),
    status: status ? { code: Number(one(fieldsOf(status as Uint8Array), 3) ?? 0n) } : undefined,
  };
}

export function decodeTraceRequest(bytes: Uint8Array) {
  return {
    resourceSpans: all(fieldsOf(bytes), 1).map((resourceSpans) => {
      const fields = fieldsOf(resourceSpans);
      const resource = one(fields, 1);
      return {
        resource: { attributes: resource ? attributes(fieldsOf(resource as Uint8Array), 1) : [] },
        scopeSpans: all(fields, 2).map((scopeSpans) => {
          const scope = one(fieldsOf(scopeSpans), 1);
          return {
            scope: { name: scope ? text(one(fieldsOf(scope as Uint8Array), 1)) : undefined },
            spans: all(fieldsOf(scopeSpans), 2).map(span),
          };
        }),
      };
    }),
  };
}
