import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(type\s)?[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Each file of src/ (relative, e.g. `rest/router.ts`) with the src/ files it imports; `runtime`
 * leaves out `import type`, which the compiler erases.
 */
export function importGraph({ runtime = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .filter((match) => !(runtime && match[1]))
      .map((match) => {
        const specifier = (match[2] ?? match[3]) as string;
        return relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      });
    graph.set(relative(SRC, file), [...new Set(targets)]);
  }
  return graph;
}

/** The cycles of the graph, each as the list of files around it (Tarjan's strongly connected components). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Every file reachable from `entry` through imports. */
export function reachableFrom(graph: Map<string, string[]>, entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (node: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const next of graph.get(node) ?? []) walk(next);
  };
  walk(entry);
  return seen;
}
