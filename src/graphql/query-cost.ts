import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { QUERY_COST_MAX } from '../http/graphql-limits.js';

/** What a query costs and may cost, as `extensions.cost` and a refusal carry it. */
export interface QueryCost {
  requestedQueryCost: number;
  maximumAvailable: number;
}

/** Prices kept per operation, by its variables; an operation's list is dropped past this. */
const PRICES_PER_OPERATION = 64;

const prices = new WeakMap<OperationDefinitionNode, Map<string, number | undefined>>();

/**
 * The operation asked for, priced alone; undefined when there is none or its variables are bad
 * (execution refuses those in its own words). A price depends on the document and variables
 * alone (src/graphql/cost.ts reads no context), so it is kept per operation (Yoga's parser
 * cache hands out one document per query text) and its variables.
 */
function costOf(args: ExecutionArgs): number | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const key = JSON.stringify(args.variableValues ?? {});
  let kept = prices.get(operation);
  if (kept?.has(key)) return kept.get(key);
  if (!kept || kept.size >= PRICES_PER_OPERATION) {
    kept = new Map();
    prices.set(operation, kept);
  }
  const price = priceOf(args, operation);
  kept.set(key, price);
  return price;
}

function priceOf(args: ExecutionArgs, operation: OperationDefinitionNode): number | undefined {
  const fragments = args.document.definitions.filter(
    (definition): definition is FragmentDefinitionNode =>
      definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const alone: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
  try {
    return complexityFromQuery(alone, {
      schema: args.schema,
      variables: (args.variableValues ?? {}) as Record<string, unknown>,
    }).complexity;
  } catch {
    return undefined;
  }
}

/** An operation's price with its variables, as `extensions.cost` carries it; undefined as costOf. */
export function queryCostOf(args: ExecutionArgs): QueryCost | undefined {
  const requestedQueryCost = costOf(args);
  return requestedQueryCost === undefined
    ? undefined
    : { requestedQueryCost, maximumAvailable: QUERY_COST_MAX };
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
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = queryCostOf(args);
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
      const cost = queryCostOf(args);
      if (cost && cost.requestedQueryCost > cost.maximumAvailable)
        setResultAndStopExecution({ errors: [tooCostly(cost)], extensions: { cost } });
    },
  };
}
