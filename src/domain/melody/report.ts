/** Most warnings a parse lists before it summarizes the rest. */
const MAX_WARNINGS = 50;

interface Entry {
  offset: number;
  message: string;
}

interface Ignored {
  offset: number;
  count: number;
  hint: string | undefined;
}

/** Collects errors and warnings and words their positions ("column 3", or "line 2, column 3"). */
export class MelodyReport {
  private readonly errors: Entry[] = [];
  private readonly warnings: Entry[] = [];
  private readonly ignored = new Map<string, Ignored>();
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 13 && text.charCodeAt(i + 1) === 10) continue;
      if (code === 10 || code === 13) this.lineStarts.push(i + 1);
    }
  }

  /** "column 3" on a one-line melody, "line 2, column 3" otherwise (1-based, UTF-16 units). */
  where(offset: number): string {
    if (this.lineStarts.length === 1) return `column ${offset + 1}`;
    let line = 0;
    let above = this.lineStarts.length;
    while (above - line > 1) {
      const middle = (line + above) >> 1;
      if ((this.lineStarts[middle] ?? Infinity) <= offset) line = middle;
      else above = middle;
    }
    return `line ${line + 1}, column ${offset - (this.lineStarts[line] ?? 0) + 1}`;
  }

  error(offset: number, message: string): void {
    this.errors.push({ offset, message });
  }

  warning(offset: number, message: string): void {
    this.warnings.push({ offset, message });
  }

  /** Characters the player skips: one warning per character, however often it appears. */
  ignoredCharacter(character: string, offset: number, hint?: string): void {
    const key = `${character}\u0000${hint ?? ''}`;
    const seen = this.ignored.get(key);
    if (seen === undefined) this.ignored.set(key, { offset, count: 1, hint });
    else seen.count++;
  }

  errorMessages(): string[] {
    return sortedMessages(this.errors);
  }

  warningMessages(): string[] {
    const ignored: Entry[] = [...this.ignored].map(([key, { offset, count, hint }]) => {
      const character = key.slice(0, key.indexOf('\u0000'));
      const times = count > 1 ? ` (${count} times)` : '';
      const message =
        hint === undefined
          ? `Unknown character '${character}' at ${this.where(offset)} is ignored${times}`
          : `'${character}' at ${this.where(offset)} is ignored${times}: ${hint}`;
      return { offset, message };
    });
    const messages = sortedMessages([...this.warnings, ...ignored]);
    if (messages.length <= MAX_WARNINGS) return messages;
    return [
      ...messages.slice(0, MAX_WARNINGS),
      `${messages.length - MAX_WARNINGS} more warnings not shown`,
    ];
  }
}

function sortedMessages(entries: Entry[]): string[] {
  return [...entries].sort((a, b) => a.offset - b.offset).map((entry) => entry.message);
}
