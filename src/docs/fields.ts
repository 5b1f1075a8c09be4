import { z } from 'zod';
import type { FieldDescriptions } from '../http/routes/route-spec.js';

/** A JSON Schema (2020-12) object as zod 4 emits it. */
export type JsonSchema = { [keyword: string]: unknown };

/** One documented field: its type and constraints from the zod schema, its meaning from the docs. */
export interface FieldDoc {
  type: string;
  required: boolean;
  description: string;
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  properties?: Record<string, FieldDoc>;
}

/** The JSON Schema of what a client sends (`io: 'input'`), without the `$schema` marker. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** The JSON Schema of what the service answers (`io: 'output'`). */
export function outputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/**
 * Query parameters arrive as text but are checked as values (`limit` becomes an integer
 * 1..100): each parameter documents its checked value where JSON Schema can say it, and what
 * is sent otherwise (a timestamp parsed to a Date). Requiredness is the client's side.
 */
export function queryJsonSchema(schema: z.ZodType): JsonSchema {
  const input = inputJsonSchema(schema);
  const output = outputJsonSchema(schema);
  const inputProperties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const outputProperties = (output.properties ?? {}) as Record<string, JsonSchema>;
  const properties = Object.fromEntries(
    Object.entries(inputProperties).map(([name, sent]) => {
      const checked = outputProperties[name];
      return [name, checked && Object.keys(checked).length > 0 ? checked : sent];
    }),
  );
  return { type: 'object', properties, ...(input.required ? { required: input.required } : {}) };
}

/** `anyOf: [X, {type: 'null'}]` (a nullish field) documents as X. */
function withoutNull(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf as JsonSchema[] | undefined;
  if (!options) return schema;
  const rest = options.filter((option) => option.type !== 'null');
  return rest.length === 1 && rest[0]
    ? { ...rest[0], ...(schema.default !== undefined ? { default: schema.default } : {}) }
    : schema;
}

function typeName(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeName).join(' | ');
  if (schema.type === 'array')
    return `${typeName((schema.items as JsonSchema | undefined) ?? {})}[]`;
  if (schema.type === 'integer') return 'integer';
  return typeof schema.type === 'string' ? schema.type : 'any';
}

const CONSTRAINTS = [
  'enum',
  'default',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'format',
] as const;

/**
 * The fields of an object schema, each with its meaning from `descriptions` (keyed by field,
 * nested fields as `parent.child`). A field without a description throws: docs cannot drift
 * silently from the schema the code validates with.
 */
export function fieldsOf(
  objectSchema: JsonSchema,
  descriptions: FieldDescriptions,
  prefix = '',
): Record<string, FieldDoc> {
  const properties = (objectSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((objectSchema.required ?? []) as string[]);
  const fields: Record<string, FieldDoc> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const path = `${prefix}${name}`;
    const description = descriptions[path] ?? (raw.description as string | undefined);
    if (description === undefined)
      throw new Error(`the field ${path} has no description in the API docs`);
    const schema = withoutNull(raw);
    const field: FieldDoc = { type: typeName(schema), required: required.has(name), description };
    for (const key of CONSTRAINTS)
      if (schema[key] !== undefined) Object.assign(field, { [key]: schema[key] });
    if (schema.type === 'object' && schema.properties)
      field.properties = fieldsOf(schema, descriptions, `${path}.`);
    fields[name] = field;
  }
  return fields;
}

/** Adds the legacy names a schema folds into its own fields, each typed as the field it stands for. */
export function withLegacy(
  schema: JsonSchema,
  legacy: Record<string, { sameAs: string; description: string }> = {},
): JsonSchema {
  const properties = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) };
  for (const [name, { sameAs, description }] of Object.entries(legacy)) {
    const { default: _default, ...target } = properties[sameAs] ?? {};
    properties[name] = { ...target, description };
  }
  const required = ((schema.required ?? []) as string[]).filter((name) => !(name in legacy));
  return { ...schema, properties, ...(schema.required ? { required } : {}) };
}
