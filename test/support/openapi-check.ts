import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks an answer of the REST face against the service's own `/api/openapi.json`: the path,
 * the method, the status, the documented headers, the content type and (for JSON) the body
 * against the document's schema, with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 * A path the document lacks may only answer 404, a method it lacks only 405, both in the error
 * shape the document defines (components.responses.Error404 / Error405).
 */

type Json = Record<string, any>;

export interface CheckedAnswer {
  method: string;
  /** The path without its query string. */
  path: string;
  status: number;
  headers: (name: string) => string | undefined;
  text: string;
}

/** Every answer under /api (and the legacy /api-docs.json) is the REST face's. */
export const isRestPath = (path: string) =>
  path === '/api' || path.startsWith('/api/') || path === '/api-docs.json';

const isMalformed = (path: string) => {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
};

const DOCUMENT_ID = 'openapi.json';
const pointer = (...parts: string[]) =>
  `${DOCUMENT_ID}#/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

class OpenapiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    // Compiled up front, so that no answer waits for a compilation (load tests count answers).
    for (const [path, item] of Object.entries((document.paths ?? {}) as Json))
      for (const [method, operation] of Object.entries(item as Json))
        for (const status of Object.keys((operation as Json).responses ?? {})) {
          const found = this.response(['paths', path, method, 'responses', status]);
          if (found?.definition.content?.['application/json'])
            this.validator(pointer(...found.parts, 'content', 'application/json', 'schema'));
        }
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** A response object, with its `$ref` (to components.responses) followed, and where it lives. */
  private response(parts: string[]): { definition: Json; parts: string[] } | undefined {
    const definition: Json | undefined = parts.reduce<Json | undefined>(
      (node, part) => node?.[part],
      this.document,
    );
    if (definition?.$ref) {
      const target = (definition.$ref as string).replace(/^#\//, '').split('/');
      return this.response(target);
    }
    return definition ? { definition, parts } : undefined;
  }

  /** The document's path that names `path`: itself, or a template such as /api/items/{code}. */
  private templateOf(path: string): string {
    const paths = (this.document.paths ?? {}) as Json;
    if (paths[path]) return path;
    const segments = path.split('/');
    const template = Object.keys(paths).find((candidate) => {
      const parts = candidate.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => /^\{[^}]+\}$/.test(part) || part === segments[i])
      );
    });
    return template ?? path;
  }

  /** Problems with one answer; empty when the document describes it. */
  check(answer: CheckedAnswer): string[] {
    const { method, status } = answer;
    const where = `${method} ${answer.path} -> ${status}`;
    const path = this.templateOf(answer.path);
    const item = this.document.paths?.[path] as Json | undefined;
    let found: { definition: Json; parts: string[] } | undefined;
    if (!item) {
      // Outside the document's paths, the only answers are 404 and, for a path that is not
      // valid percent-encoding, 400 PATH_INVALID (src/http/malformed-path.ts).
      if (status !== 404 && !(status === 400 && isMalformed(path)))
        return [`${where}: the document has no path ${path}`];
      found = this.response(['components', 'responses', 'Error404']);
    } else if (!item[method.toLowerCase()]) {
      if (status !== 405)
        return [`${where}: the document has no ${method} for ${path} (only 405 may answer it)`];
      found = this.response(['components', 'responses', 'Error405']);
    } else {
      found = this.response(['paths', path, method.toLowerCase(), 'responses', String(status)]);
      if (!found) return [`${where}: status ${status} is not documented for ${method} ${path}`];
    }
    if (!found) return [`${where}: the document lacks its error response`];
    return this.checkAgainst(answer, found.definition, found.parts, where);
  }

  private checkAgainst(answer: CheckedAnswer, definition: Json, parts: string[], where: string) {
    const problems: string[] = [];
    for (const name of Object.keys((definition.headers ?? {}) as Json)) {
      if (answer.headers(name) === undefined) problems.push(`${where}: header ${name} is missing`);
    }
    const content = definition.content as Json | undefined;
    if (!content) {
      if (answer.text !== '') problems.push(`${where}: a body, where the document has none`);
      return problems;
    }
    const type = (answer.headers('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!(type in content)) {
      problems.push(
        `${where}: content type "${type}" is not one of ${Object.keys(content).join(', ')}`,
      );
      return problems;
    }
    if (type !== 'application/json') return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = this.validator(pointer(...parts, 'content', type, 'schema'));
    if (!validate(body)) {
      problems.push(
        `${where}: the body does not match the document: ${this.ajv.errorsText(validate.errors)}; body ${answer.text.slice(0, 300)}`,
      );
    }
    return problems;
  }
}

const checkers = new Map<string, Promise<OpenapiChecker>>();

/** The checker of one running service, built once from its own document. */
export function openapiCheckerFor(origin: string): Promise<OpenapiChecker> {
  let checker = checkers.get(origin);
  if (!checker) {
    checker = fetch(`${origin}/api/openapi.json`)
      .then((response) => response.json() as Promise<Json>)
      .then((document) => new OpenapiChecker(document));
    checker.catch(() => checkers.delete(origin));
    checkers.set(origin, checker);
  }
  return checker;
}

export class UndocumentedAnswerError extends Error {
  override name = 'UndocumentedAnswerError';
}

/** Throws when a REST answer is not what `/api/openapi.json` says; anything else passes. */
export async function assertDocumented(origin: string, answer: CheckedAnswer): Promise<void> {
  if (!isRestPath(answer.path) || answer.method === 'HEAD') return;
  const problems = (await openapiCheckerFor(origin)).check(answer);
  if (problems.length > 0) throw new UndocumentedAnswerError(problems.join('\n'));
}
