import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, reachableFrom, SRC } from './import-graph.js';

const FACES = ['graphql', 'rest', 'mcp', 'docs', 'pages'];

/**
 * The layers, top first: a file may import its own layer and the layers below it, never above.
 * cli -> commands -> service -> faces -> http -> operations -> {domain, db, auth, storage, rate-limit};
 * telemetry (spans, metric names) sits at the bottom, beside the logger, so every layer may use it.
 */
const LAYERS: string[][] = [
  ['cli.ts'],
  ['commands'],
  ['service.ts', 'listener.ts'],
  FACES,
  ['http'],
  ['operations', 'context.ts'],
  ['auth', 'storage', 'rate-limit'],
  ['db'],
  [
    'domain',
    'telemetry',
    'app-error.ts',
    'startup-error.ts',
    'config.ts',
    'logger.ts',
    'metrics.ts',
    'varint.ts',
    'version.ts',
  ],
];

const topOf = (file: string) => file.split('/')[0] as string;
const layerOf = (file: string) => LAYERS.findIndex((layer) => layer.includes(topOf(file)));

const graph = importGraph();
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

describe('the import graph of src/', () => {
  it('places every file in a layer', () => {
    expect([...graph.keys()].filter((file) => layerOf(file) === -1)).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('has no import from one face into another', () => {
    const crossing = edges.filter(
      ({ from, to }) =>
        FACES.includes(topOf(from)) && FACES.includes(topOf(to)) && topOf(from) !== topOf(to),
    );
    expect(crossing).toEqual([]);
  });

  it('runs one way: no file imports a layer above its own', () => {
    const upward = edges.filter(({ from, to }) => layerOf(to) < layerOf(from));
    expect(upward).toEqual([]);
  });
});

describe('the publish-mcp package (src/mcp/stdio.ts)', () => {
  it('loads no database, storage or service code: an assistant installs it alone', () => {
    const loaded = [...reachableFrom(importGraph({ runtime: true }), 'mcp/stdio.ts')];
    expect(
      loaded.filter((file) => /^(db|storage|auth|rate-limit|http|rest|graphql)\//.test(file)),
    ).toEqual([]);
    expect(
      loaded.some((file) => /from ['"]mongodb['"]/.test(readFileSync(join(SRC, file), 'utf8'))),
    ).toBe(false);
  });
});
