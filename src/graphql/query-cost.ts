import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  Kind,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { QUERY_COST_MAX } from './cost.js';

/** What a query costs and may cost, as `extensions.cost` and a refusal carry it. */
export interface QueryCost {
  requestedQueryCost: number;
  maximumAvailable: number;
}

/**
 * The operation asked for, priced alone; undefined when there is none or its variables are bad
 * (execution refuses those in its own words).
 */
function costOf(args: ExecutionArgs): number | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const fragments = args.document.definitions.filter(
    (definition): definition is FragmentDefinitionNode =>
      definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const alone: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
  try {
    return complexityFromQuery(alone, {
      schema: args.schema,
      ctx: args.contextValue as object,
      variables: (args.variableValues ?? {}) as Record<string, unknown>,
    }).complexity;
  } catch {
    return undefined;
  }
}

export const tooCostly = (cost: QueryCost) =>
  new GraphQLError(
    `This query costs ${cost.requestedQueryCost}, more than the ${cost.maximumAvailable} a query may cost: ask for smaller pages (first/last) or fewer nested lists.`,
    { extensions: { code: 'QUERY_TOO_COSTLY', cost } },
  );

/**
 * Prices each operation before it runs (src/graphql/cost.ts) and refuses one over
 * QUERY_COST_MAX with QUERY_TOO_COSTLY; an answer carries its price in `extensions.cost`, as
 * Shopify's does, so a client sees its budget.
 */
export function useQueryCost(): Plugin {
  const priced = (args: ExecutionArgs): QueryCost | undefined => {
    const requestedQueryCost = costOf(args);
    return requestedQueryCost === undefined
      ? undefined
      : { requestedQueryCost, maximumAvailable: QUERY_COST_MAX };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = priced(args);
      if (!cost) return;
      if (cost.requestedQueryCost > cost.maximumAvailable) {
        setResultAndStopExecution({ errors: [tooCostly(cost)], extensions: { cost } });
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = priced(args);
      if (cost && cost.requestedQueryCost > cost.maximumAvailable)
        setResultAndStopExecution({ errors: [tooCostly(cost)], extensions: { cost } });
    },
  };
}
