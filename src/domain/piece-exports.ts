import { type Identifier, type Literal, type Pattern, type Program, parse } from 'acorn';

export const LIFECYCLE_EXPORTS = ['boot', 'paint', 'sim', 'act'] as const;

export type PieceExportCheck =
  | { ok: true; exports: string[]; lifecycle: string[]; hasDefault: boolean }
  | { ok: false; reason: 'syntax'; message: string; line: number; column: number }
  | { ok: false; reason: 'no-lifecycle'; exports: string[] };

/** acorn raises a SyntaxError carrying the position; its message ends in " (line:column)". */
type AcornSyntaxError = SyntaxError & { loc: { line: number; column: number } };

/**
 * Reads a piece module's real exports with a full parse (acorn), so names inside comments,
 * strings or unexported declarations do not count, and any syntax error is reported with
 * its 1-based line and column. Never throws on arbitrary text.
 */
export function checkPieceExports(source: string): PieceExportCheck {
  let body: Program['body'];
  try {
    body = parse(source, { sourceType: 'module', ecmaVersion: 'latest' }).body;
  } catch (error) {
    if (!isAcornSyntaxError(error)) throw error;
    return {
      ok: false,
      reason: 'syntax',
      message: error.message.replace(/ \(\d+:\d+\)$/, ''),
      line: error.loc.line,
      column: error.loc.column + 1,
    };
  }
  const exports = body.flatMap((node) => exportedNames(node));
  const lifecycle = LIFECYCLE_EXPORTS.filter((name) => exports.includes(name));
  const hasDefault = exports.includes('default');
  if (lifecycle.length === 0 && !hasDefault) return { ok: false, reason: 'no-lifecycle', exports };
  return { ok: true, exports, lifecycle, hasDefault };
}

function isAcornSyntaxError(error: unknown): error is AcornSyntaxError {
  return (
    error instanceof SyntaxError &&
    typeof (error as Partial<AcornSyntaxError>).loc?.line === 'number'
  );
}

function exportedNames(declaration: Program['body'][number]): string[] {
  switch (declaration.type) {
    case 'ExportDefaultDeclaration':
      return ['default'];
    case 'ExportAllDeclaration':
      // `export * from 'x'` adds names unknown here; `export * as ns from 'x'` adds `ns`.
      return declaration.exported ? [nameOf(declaration.exported)] : [];
    case 'ExportNamedDeclaration': {
      const declared = declaration.declaration;
      if (!declared) return declaration.specifiers.map((specifier) => nameOf(specifier.exported));
      if (declared.type === 'VariableDeclaration')
        return declared.declarations.flatMap((d) => boundNames(d.id));
      return [declared.id.name];
    }
    default:
      return [];
  }
}

function nameOf(node: Identifier | Literal): string {
  return node.type === 'Identifier' ? node.name : String(node.value);
}

/** Names bound by `export const { a, b: [c], ...d } = ...` and the like. */
function boundNames(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) =>
        boundNames(p.type === 'RestElement' ? p.argument : p.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element ? boundNames(element) : []));
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    default:
      return [];
  }
}
