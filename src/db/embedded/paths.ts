import type { Document } from 'bson';
import { defineField } from './documents.js';
import { notSupported, pathNotViable } from './errors.js';
import { isPlainObject } from './values.js';

type Container = Document | unknown[];

const isIndex = (part: string) => /^\d+$/.test(part);

/** Own fields only: `__proto__` or `constructor` never reach a prototype. */
function child(container: Container, part: string): unknown {
  if (Array.isArray(container)) return isIndex(part) ? container[Number(part)] : undefined;
  return Object.hasOwn(container, part) ? container[part] : undefined;
}

function assign(container: Container, part: string, value: unknown): void {
  if (!Array.isArray(container)) {
    defineField(container, part, value);
    return;
  }
  const at = Number(part);
  while (container.length < at) container.push(null);
  container[at] = value;
}

const splitPath = (path: string): string[] => {
  const parts = path.split('.');
  if (parts.some((part) => part === ''))
    throw pathNotViable(`An update path '${path}' contains an empty field name`);
  if (parts.some((part) => part.startsWith('$')))
    throw notSupported(`the positional update path '${path}'`);
  return parts;
};

/**
 * The container holding the last field of `path` and that field's name; intermediate documents
 * are created when `create` is set. Undefined when the path does not exist (and is not created).
 */
export function locate(
  doc: Document,
  path: string,
  create: boolean,
): { parent: Container; field: string } | undefined {
  const parts = splitPath(path);
  let current: Container = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(current) && !isIndex(part)) {
      if (!create) return undefined;
      throw pathNotViable(
        `Cannot create field '${part}' in element {${part}: ${JSON.stringify(current)}}`,
      );
    }
    let next = child(current, part);
    if (next === undefined) {
      if (!create) return undefined;
      next = {};
      assign(current, part, next);
    }
    if (!isPlainObject(next) && !Array.isArray(next)) {
      if (!create) return undefined;
      throw pathNotViable(`Cannot create field in element {${part}: ${JSON.stringify(next)}}`);
    }
    current = next;
  }
  const field = parts[parts.length - 1] as string;
  if (Array.isArray(current) && !isIndex(field)) {
    if (!create) return undefined;
    throw pathNotViable(`Cannot create field '${field}' in an array`);
  }
  return { parent: current, field };
}

export function getPath(doc: Document, path: string): unknown {
  const found = locate(doc, path, false);
  return found && child(found.parent, found.field);
}

export function setPath(doc: Document, path: string, value: unknown): void {
  const { parent, field } = locate(doc, path, true) as { parent: Container; field: string };
  assign(parent, field, value);
}

/** Removes the field; an array element becomes null, as in MongoDB. */
export function unsetPath(doc: Document, path: string): void {
  const found = locate(doc, path, false);
  if (!found) return;
  if (Array.isArray(found.parent)) {
    if (Number(found.field) < found.parent.length) found.parent[Number(found.field)] = null;
  } else {
    delete found.parent[found.field];
  }
}
