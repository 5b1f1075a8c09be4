import { parse } from 'acorn';
import { KIDLISP_MAX_LENGTH, previewKidlisp } from '../src/domain/kidlisp/index.js';
import { checkPieceExports } from '../src/domain/piece-exports.js';

export interface TimingRow {
  name: string;
  baseline: string;
  ms: number;
  baselineMs: number;
  ratio: number;
}

/** Fastest of several runs after a warm-up: other work on the machine only ever adds time. */
function fastest(run: () => unknown, runs = 21): number {
  for (let i = 0; i < 5; i++) run();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return Number(best.toFixed(2));
}

const fill = (unit: string, length: number) => unit.repeat(Math.floor(length / unit.length));
const bareTokens = /[()]|"[^"\n]*"|;[^\n]*|[^\s(),;"']+/g;

/** The validators at their size limits, against the cheapest pass that reads the same text. */
export function benchValidators(): TimingRow[] {
  const program = fill(
    '(wipe black)\n(repeat 10 i (ink rainbow) (line 0 i w i)) ; comment\nink red\nfade:red-blue, box 1 2 3 4\n',
    KIDLISP_MAX_LENGTH,
  );
  const nested = '('.repeat(KIDLISP_MAX_LENGTH);
  let module = '';
  for (let i = 0; module.length < 99_900; i++)
    module += `// ring ${i}\nconst ring${i} = (t) => ["red", \`c\${t}\`].map((c, k) => c + k * ${i});\n`;
  module += 'export function paint() {}';

  const rows: TimingRow[] = [];
  const add = (name: string, baseline: string, run: () => unknown, reference: () => unknown) => {
    const ms = fastest(run);
    const baselineMs = fastest(reference);
    rows.push({ name, baseline, ms, baselineMs, ratio: Number((ms / baselineMs).toFixed(1)) });
  };
  add(
    'previewKidlisp, 50,000-char program',
    'one regex token pass',
    () => previewKidlisp(program),
    () => program.match(bareTokens),
  );
  add(
    'previewKidlisp, 50,000 unclosed parens',
    'one regex token pass',
    () => previewKidlisp(nested),
    () => nested.match(bareTokens),
  );
  add(
    'checkPieceExports, 100,000-char module',
    'acorn parse alone',
    () => checkPieceExports(module),
    () => parse(module, { ecmaVersion: 'latest', sourceType: 'module' }),
  );
  return rows;
}
