import type { Document } from 'bson';
import { CommandError } from './errors.js';
import { isPlainObject } from './values.js';

/**
 * mongod's nesting limits (its `BSONDepth`, the insert path's `validateDepth` and the pipeline's
 * `Document::toBson`): BSON may nest 200 levels (`maxBSONDepth`), a stored document 20 fewer.
 * A document is level 1 and each embedded document or array one more; an empty one does not
 * count toward a stored document's depth.
 * MongoDB's manual promises at least 100 levels; mongod refuses from 181 (stored) and 201.
 */
export const MAX_BSON_DEPTH = 200;
export const MAX_STORED_DEPTH = MAX_BSON_DEPTH - 20;

const isNested = (value: unknown): value is Document | unknown[] =>
  Array.isArray(value) || isPlainObject(value);

/** Whether `value` (a document at `level`) nests deeper than `limit`, empty ones counted or not. */
function deeperThan(value: Document | unknown[], level: number, limit: number, empties: boolean) {
  for (const inner of Array.isArray(value) ? value : Object.values(value)) {
    if (!isNested(inner)) continue;
    const empty = Array.isArray(inner) ? inner.length === 0 : Object.keys(inner).length === 0;
    if (empty && !empties) continue;
    if (level === limit || deeperThan(inner, level + 1, limit, empties)) return true;
  }
  return false;
}

/** Refuses, as mongod does (15 Overflow), a document about to be stored that nests too deep. */
export function checkStoredDepth(doc: Document, write: 'insert' | 'update'): void {
  if (!deeperThan(doc, 1, MAX_STORED_DEPTH, false)) return;
  throw new CommandError(
    15,
    'Overflow',
    write === 'insert'
      ? `cannot insert document because it exceeds ${MAX_STORED_DEPTH} levels of nesting`
      : `Document exceeds maximum nesting depth of ${MAX_STORED_DEPTH}`,
  );
}

/** Refuses, as mongod does (15 Overflow), a document a pipeline made that BSON cannot hold. */
export function checkResultDepth(doc: Document): void {
  if (!deeperThan(doc, 1, MAX_BSON_DEPTH, true)) return;
  throw new CommandError(
    15,
    'Overflow',
    `cannot convert document to BSON because it exceeds the limit of ${MAX_BSON_DEPTH} levels of nesting`,
  );
}
