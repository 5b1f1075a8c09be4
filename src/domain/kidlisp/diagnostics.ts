import type { Position } from './tokenizer.js';
import type { KidlispDiagnostic } from './types.js';

/** At most this many of each severity are listed, then one line says how many more there were. */
const MAX_SHOWN = 100;
/** Beyond this many of a severity only the count is kept, so pathological input stays cheap. */
const MAX_KEPT = 1_000;

type Severity = KidlispDiagnostic['severity'];

export function at(position: Position): string {
  return `at line ${position.line}, column ${position.column}`;
}

export class DiagnosticList {
  private readonly kept: Record<Severity, KidlispDiagnostic[]> = { error: [], warning: [] };
  private readonly total: Record<Severity, number> = { error: 0, warning: 0 };

  error(message: string, position: Position): void {
    this.add('error', message, position);
  }

  warning(message: string, position: Position): void {
    this.add('warning', message, position);
  }

  /** False once a severity has more than enough entries; callers in hot loops may stop early. */
  wants(severity: Severity): boolean {
    return this.kept[severity].length < MAX_KEPT;
  }

  /** Counts diagnostics not worth spelling out because too many are already kept. */
  countMore(severity: Severity, count: number): void {
    this.total[severity] += count;
  }

  /** Errors first, each severity in source order, long lists cut short. */
  sorted(): KidlispDiagnostic[] {
    return [...this.shown('error', 'errors'), ...this.shown('warning', 'warnings')];
  }

  private add(severity: Severity, message: string, position: Position): void {
    this.total[severity]++;
    if (this.wants(severity))
      this.kept[severity].push({ severity, message, line: position.line, column: position.column });
  }

  private shown(severity: Severity, noun: string): KidlispDiagnostic[] {
    const items = [...this.kept[severity]].sort((a, b) => a.line - b.line || a.column - b.column);
    const more = this.total[severity] - MAX_SHOWN;
    if (more <= 0) return items;
    const shown = items.slice(0, MAX_SHOWN);
    const next = items[MAX_SHOWN];
    if (next !== undefined)
      shown.push({
        ...next,
        message: `${more} more ${noun} not shown (the next one is ${at(next)})`,
      });
    return shown;
  }
}
