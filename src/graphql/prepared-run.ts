import type { IncomingMessage } from 'node:http';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import type { Services } from '../context.js';
import { type CompiledOperations, runCompiled } from './compiled-execution.js';
import { toGraphQLError } from './contract-errors.js';
import { schema } from './index.js';
import { observeExecution } from './operation-telemetry.js';
import { queryCostOf } from './query-cost.js';
import { graphqlContext } from './yoga.js';

/**
 * Runs a plain POST's operation (src/graphql/plain-post.ts); undefined leaves it to Yoga.
 * Throws only what the run itself threw.
 */
export type PreparedRun = (
  req: IncomingMessage,
  params: GraphQLParams,
) => Promise<ExecutionResult | undefined>;

/**
 * An operation Yoga has already parsed, validated and compiled (CompiledOperations keeps it by
 * its text) runs again here without Yoga's and envelop's per-request machinery, which cost a
 * small read a sixth of its time (bench/graphql-cpu.ts). The steps are those the plugins of
 * src/graphql/yoga.ts take for a query, in their order and through their own functions: the
 * request's context, the price (refusals are left to Yoga), the operation's telemetry, the
 * compiled run, errors masked as Yoga masks them, the price in `extensions.cost`.
 * Anything before the run that would not simply succeed (an unknown text, a bad token, a price
 * over the limit) is left to Yoga, which then runs the operation as it runs any other.
 * test/graphql/plain-post.test.ts holds both ways to the same bytes.
 */
export function createPreparedRun(services: Services, operations: CompiledOperations): PreparedRun {
  return async (req, params) => {
    const prepared = operations.byText(params.query ?? '', params.operationName);
    if (!prepared) return undefined;
    const contextValue = await graphqlContext(services, req, req.headers.authorization).catch(
      () => undefined,
    );
    if (!contextValue) return undefined;
    const args: ExecutionArgs = {
      schema,
      document: prepared.document,
      operationName: params.operationName,
      variableValues: params.variables,
      contextValue,
    };
    const cost = queryCostOf(args);
    if (!cost || cost.requestedQueryCost > cost.maximumAvailable) return undefined;
    const result = await observeExecution(contextValue, args, (run) =>
      runCompiled(prepared.compiled, prepared.operation, run),
    );
    const errors = result.errors?.map((error) => toGraphQLError(error, contextValue.services));
    return {
      ...result,
      ...(errors ? { errors } : {}),
      extensions: { ...result.extensions, cost },
    };
  };
}
