import type { z } from 'zod';
import { type RequestContext, withinScope } from '../context.js';
import { inSpan } from '../telemetry/active-span.js';
import { parseInput } from './validation.js';

/**
 * An operation is defined once: its input schema and its function. Every face (REST, GraphQL,
 * MCP) runs it through `runOperation`, the one place where input is validated, so the faces
 * cannot disagree about a rule.
 */
export interface Operation<Input extends z.ZodType, Result, Context = RequestContext> {
  readonly name: string;
  readonly input: Input;
  run(ctx: Context, input: z.output<Input>): Promise<Result>;
}

export const defineOperation = <Input extends z.ZodType, Result, Context = RequestContext>(
  operation: Operation<Input, Result, Context>,
) => operation;

/**
 * Validates the raw input with the operation's schema (the contract's error on failure), then runs
 * it, inside a span of its own when the request is traced (never with its input).
 */
export function runOperation<Input extends z.ZodType, Result, Context>(
  operation: Operation<Input, Result, Context>,
  ctx: Context,
  rawInput: unknown,
): Promise<Result> {
  const input = parseInput(operation.input, rawInput);
  const scope = (ctx as Partial<RequestContext> | null)?.services?.trace;
  if (!scope) return operation.run(ctx, input);
  return inSpan(
    scope,
    operation.name,
    (inner) =>
      operation.run(inner ? (withinScope(ctx as RequestContext, inner) as Context) : ctx, input),
    { attributes: { 'operation.name': operation.name } },
  );
}
