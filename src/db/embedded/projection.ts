import type { Document } from 'bson';
import { defineField } from './documents.js';
import { isPlainObject } from './values.js';

/** Projected paths as a tree: `true` at a leaf, a subtree for a dotted path. */
type Tree = { [field: string]: Tree | true };

/**
 * A find projection made only of inclusions or only of exclusions (plus `_id`), applied in the
 * document's own field order (so `_id` stays first); undefined for anything else (operators,
 * expressions, positional paths), which mingo then applies.
 */
export function simpleProjection(spec: Document): ((doc: Document) => Document) | undefined {
  const tree: Tree = {};
  let including: boolean | undefined;
  let keepId = true;
  for (const [path, value] of Object.entries(spec)) {
    if (typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    if (path.includes('$') || path.split('.').some((part) => part === '')) return undefined;
    const include = value !== 0 && value !== false;
    if (path === '_id') {
      keepId = include;
      continue;
    }
    if (including !== undefined && including !== include) return undefined;
    including = include;
    addPath(tree, path.split('.'));
  }
  if (including === undefined) including = false;
  if (including) {
    if (keepId) tree._id = true;
    return (doc) => include(doc, tree);
  }
  if (!keepId) tree._id = true;
  return (doc) => exclude(doc, tree);
}

function addPath(tree: Tree, parts: string[]): void {
  const [head, ...rest] = parts as [string, ...string[]];
  if (rest.length === 0) {
    defineField(tree, head, true);
    return;
  }
  const inner = Object.hasOwn(tree, head) ? tree[head] : undefined;
  if (inner === true) return;
  const subtree: Tree = inner ?? {};
  defineField(tree, head, subtree);
  addPath(subtree, rest);
}

function include(doc: Document, tree: Tree): Document {
  const out: Document = {};
  for (const [field, value] of Object.entries(doc)) {
    const rule = Object.hasOwn(tree, field) ? tree[field] : undefined;
    if (rule === undefined) continue;
    if (rule === true) defineField(out, field, value);
    else if (isPlainObject(value)) defineField(out, field, include(value, rule));
    else if (Array.isArray(value)) defineField(out, field, includeEach(value, rule));
  }
  return out;
}

const includeEach = (values: unknown[], tree: Tree): unknown[] =>
  values.flatMap((value) =>
    isPlainObject(value)
      ? [include(value, tree)]
      : Array.isArray(value)
        ? [includeEach(value, tree)]
        : [],
  );

function exclude(doc: Document, tree: Tree): Document {
  const out: Document = {};
  for (const [field, value] of Object.entries(doc)) {
    const rule = Object.hasOwn(tree, field) ? tree[field] : undefined;
    if (rule === true) continue;
    if (rule === undefined) defineField(out, field, value);
    else if (isPlainObject(value)) defineField(out, field, exclude(value, rule));
    else if (Array.isArray(value)) defineField(out, field, excludeEach(value, rule));
    else defineField(out, field, value);
  }
  return out;
}

const excludeEach = (values: unknown[], tree: Tree): unknown[] =>
  values.map((value) =>
    isPlainObject(value)
      ? exclude(value, tree)
      : Array.isArray(value)
        ? excludeEach(value, tree)
        : value,
  );
