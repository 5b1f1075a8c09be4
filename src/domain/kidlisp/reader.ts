import type { Form, ListForm } from './forms.js';
import type { Position, Token } from './tokenizer.js';
import { wrapsAsCommaSegment, wrapsAsLine } from './words.js';

export interface ParenBalance {
  unmatchedCloses: Token[];
  unclosedOpens: Token[];
}

export interface Program {
  /** Top-level forms. */
  forms: Form[];
  /** Every list, outermost first, written or implied by the layout rules. */
  lists: ListForm[];
}

/** Counts the parens the author wrote; strings and comments were already set apart by the tokenizer. */
export function checkParenBalance(tokens: readonly Token[]): ParenBalance {
  const unmatchedCloses: Token[] = [];
  const openStack: Token[] = [];
  for (const token of tokens) {
    if (token.kind === 'open') openStack.push(token);
    else if (token.kind === 'close') {
      if (openStack.length === 0) unmatchedCloses.push(token);
      else openStack.pop();
    }
  }
  return { unmatchedCloses, unclosedOpens: openStack };
}

/**
 * Builds forms the way the reference runtime lays out a program: comma segments and bare lines
 * get implicit parens, a missing `)` is closed at the end, an extra `)` is skipped.
 */
export function readProgram(tokens: readonly Token[], multiLine: boolean): Program {
  const builder = new FormBuilder();
  if (multiLine) layoutLines(tokens, builder);
  else layoutLine(tokens, 0, tokens.length, builder);
  return builder.finish();
}

class FormBuilder {
  private readonly forms: Form[] = [];
  private readonly lists: ListForm[] = [];
  private readonly stack: ListForm[] = [];

  open(position: Position, implicit: boolean): void {
    const list: ListForm = {
      kind: 'list',
      items: [],
      implicit,
      line: position.line,
      column: position.column,
    };
    this.lists.push(list);
    this.stack.push(list);
  }

  close(): void {
    const closed = this.stack.pop();
    if (closed !== undefined) this.append(closed);
  }

  add(token: Token): void {
    if (token.kind === 'open') this.open(token, false);
    else if (token.kind === 'close') this.close();
    else if (token.kind !== 'comma') this.append(token as Form);
  }

  finish(): Program {
    while (this.stack.length > 0) this.close();
    return { forms: this.forms, lists: this.lists };
  }

  private append(form: Form): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) this.forms.push(form);
    else parent.items.push(form);
  }
}

/** Multi-line source: each line on its own, wrapped when it starts with a word, unless the line before left a paren open. */
function layoutLines(tokens: readonly Token[], builder: FormBuilder): void {
  let previousLineLeftParenOpen = false;
  let start = 0;
  while (start < tokens.length) {
    const line = tokens[start]?.line;
    let end = start;
    let balance = 0;
    let hasComma = false;
    for (
      let token = tokens[end];
      token !== undefined && token.line === line;
      token = tokens[++end]
    ) {
      if (token.kind === 'open') balance++;
      else if (token.kind === 'close') balance--;
      else if (token.kind === 'comma') hasComma = true;
    }
    if (hasComma) layoutCommaSegments(tokens, start, end, builder);
    else if (!previousLineLeftParenOpen && startsWithWord(tokens, start, wrapsAsLine))
      emitWrapped(tokens, start, end, builder);
    else emitPlain(tokens, start, end, builder);
    previousLineLeftParenOpen = balance > 0;
    start = end;
  }
}

function layoutLine(
  tokens: readonly Token[],
  start: number,
  end: number,
  builder: FormBuilder,
): void {
  let hasComma = false;
  for (let i = start; i < end && !hasComma; i++) hasComma = tokens[i]?.kind === 'comma';
  if (hasComma) layoutCommaSegments(tokens, start, end, builder);
  else emitPlain(tokens, start, end, builder);
}

/** `purple, ink, line, blur 5` reads as `(purple) (ink) (line) (blur 5)`. */
function layoutCommaSegments(
  tokens: readonly Token[],
  start: number,
  end: number,
  builder: FormBuilder,
): void {
  let segmentStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && tokens[i]?.kind !== 'comma') continue;
    if (startsWithWord(tokens, segmentStart, wrapsAsCommaSegment) && segmentStart < i)
      emitWrapped(tokens, segmentStart, i, builder);
    else emitPlain(tokens, segmentStart, i, builder);
    segmentStart = i + 1;
  }
}

function startsWithWord(
  tokens: readonly Token[],
  index: number,
  test: (word: string) => boolean,
): boolean {
  const token = tokens[index];
  return token?.kind === 'word' && test(token.text);
}

function emitWrapped(
  tokens: readonly Token[],
  start: number,
  end: number,
  builder: FormBuilder,
): void {
  const first = tokens[start];
  if (first === undefined) return;
  builder.open(first, true);
  emitPlain(tokens, start, end, builder);
  builder.close();
}

function emitPlain(
  tokens: readonly Token[],
  start: number,
  end: number,
  builder: FormBuilder,
): void {
  for (let i = start; i < end; i++) {
    const token = tokens[i];
    if (token !== undefined) builder.add(token);
  }
}
