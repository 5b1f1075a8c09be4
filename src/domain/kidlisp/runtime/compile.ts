import { isBuiltin } from '../builtins.js';
import { isChaoticSource } from '../chaos.js';
import { isValidFade } from '../colors.js';
import { type Form, isWord, type ListForm, takesDirectionList } from '../forms.js';
import { backdropLength } from '../layout-checks.js';
import { checkParenBalance, readProgram } from '../reader.js';
import { tokenize } from '../tokenizer.js';
import { isCleanNumber, isTimingWord } from '../words.js';
import { splitFadeExpression } from './palette.js';

export type InfixOperator = '+' | '-' | '*' | '/' | '%';

export type InfixExpression =
  | { kind: 'name'; name: string }
  | { kind: 'number'; value: number }
  | { kind: 'op'; op: InfixOperator; left: InfixExpression; right: InfixExpression };

/** Mutable per-form state kept on the form itself (timers, `...` counters, `once`, embeds). */
export interface FormState {
  lastSlot?: number;
  index?: number;
  done?: boolean;
  embed?: unknown;
}

export interface ListNode {
  t: 'list';
  items: Node[];
  line: number;
  column: number;
  /** The first top-level form: a timer here also fires on the first frame. */
  first?: boolean;
  state?: FormState;
}

export type Node =
  | { t: 'num'; value: number }
  | { t: 'str'; value: string }
  | { t: 'word'; name: string }
  | { t: 'neg'; name: string }
  | { t: 'infix'; text: string; expression: InfixExpression }
  /** `(min w h)/2`: a list followed by an operator word, merged into one value. */
  | { t: 'trailing'; left: ListNode; op: '*' | '/' | '%'; right: number }
  /**
   * A fade whose direction is an expression, evaluated where the fade is used:
   * `fade:red-blue:frame*2`, or `fade:red-blue:(* frame 5)` (the list written right after it).
   */
  | { t: 'fade'; colors: string; angle: Node }
  | { t: 'random' }
  | { t: 'timing'; text: string; seconds: number; cycle: boolean }
  | ListNode;

export interface CompiledProgram {
  /** Leading forms that set the backdrop (a color word, fade, `(beige)`, or 3-4 bytes). */
  backdrop: Node[];
  statements: Node[];
  /** Why the program cannot run at all, as the reference runtime would discard it. */
  discarded?: string;
  /** Text the newest reference draws in chaos mode (../chaos.ts) instead of running it. */
  chaos: boolean;
  /** Set when a `(` was left open: it is closed at the end of the program, as the reference does. */
  autoClosed?: string;
}

const INFIX = /^[A-Za-z_]\w*(?:[-+*/%](?:[A-Za-z_]\w*|\d*\.?\d+))+$/;
const INFIX_PART = /([-+*/%])/;
const NEGATED_NAME = /^-[A-Za-z_]\w*$/;

/** Reads `w/2`, `x-10`, `frame*3`, `a+b*2`: `* / %` bind tighter than `+ -`, left to right. */
export function parseInfix(word: string): InfixExpression | undefined {
  if (!INFIX.test(word) || isValidFade(word)) return undefined;
  const parts = word.split(INFIX_PART);
  const operand = (text: string): InfixExpression =>
    /^[A-Za-z_]/.test(text)
      ? { kind: 'name', name: text }
      : { kind: 'number', value: Number.parseFloat(text) };
  // parts alternate operand, operator, operand, ...
  const terms: InfixExpression[] = [];
  const termOps: InfixOperator[] = [];
  let current = operand(parts[0] ?? '');
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const op = parts[i] as InfixOperator;
    const right = operand(parts[i + 1] ?? '');
    if (op === '*' || op === '/' || op === '%') current = { kind: 'op', op, left: current, right };
    else {
      terms.push(current);
      termOps.push(op);
      current = right;
    }
  }
  terms.push(current);
  let result = terms[0] ?? current;
  for (let i = 0; i < termOps.length; i++) {
    const right = terms[i + 1];
    const op = termOps[i];
    if (right !== undefined && op !== undefined) result = { kind: 'op', op, left: result, right };
  }
  return result;
}

/** Strips the quotes of a string token and resolves backslash escapes (`\"` -> `"`, `\n` -> n). */
function stringValue(text: string): string {
  const quote = text[0];
  const body = text.endsWith(quote ?? '') && text.length >= 2 ? text.slice(1, -1) : text.slice(1);
  return body.replace(/\\(.)/g, '$1');
}

/** Turns one bare word into a node, classifying it the way the reference reader does. */
export function compileWord(text: string): Node {
  if (text === '?') return { t: 'random' };
  if (isTimingWord(text)) {
    return {
      t: 'timing',
      text,
      seconds: Number.parseFloat(text),
      cycle: text.endsWith('..'),
    };
  }
  if (isCleanNumber(text)) return { t: 'num', value: Number(text) };
  // The reference runtime reads any word that parseFloat accepts as that number (`5f` -> 5).
  const leading = Number.parseFloat(text);
  if (!Number.isNaN(leading) && /^[+-]?\.?\d/.test(text)) return { t: 'num', value: leading };
  // A built-in's own name with a dash (`auto-density`) is that word, not a subtraction.
  const expression = isBuiltin(text) ? undefined : parseInfix(text);
  if (expression !== undefined) return { t: 'infix', text, expression };
  if (NEGATED_NAME.test(text)) return { t: 'neg', name: text.slice(1) };
  const fade = splitFadeExpression(text);
  if (fade !== undefined) return { t: 'fade', colors: fade.colors, angle: compileWord(fade.angle) };
  return { t: 'word', name: text };
}

const TRAILING = /^([*/%])(\d*\.?\d+)$/;

/**
 * Compiles a run of forms; a `/2`, `*3` or `%4` word right after a list applies to that list's
 * value (`(min w h)/2`). `+N` and `-N` stay numbers, since they read as signed arguments. A fade
 * word that ends with `:` takes the list written right after it as its direction.
 */
function compileItems(forms: readonly Form[]): Node[] {
  const nodes: Node[] = [];
  for (const [index, form] of forms.entries()) {
    const previous = nodes[nodes.length - 1];
    const fadeWord = forms[index - 1];
    if (form.kind === 'list' && isWord(fadeWord) && takesDirectionList(fadeWord, form)) {
      nodes[nodes.length - 1] = { t: 'fade', colors: fadeWord.text, angle: compileList(form) };
      continue;
    }
    const match = form.kind === 'word' ? TRAILING.exec(form.text) : null;
    if (match !== null && previous?.t === 'list') {
      nodes[nodes.length - 1] = {
        t: 'trailing',
        left: previous,
        op: match[1] as '*' | '/' | '%',
        right: Number(match[2]),
      };
      continue;
    }
    nodes.push(compileForm(form));
  }
  return nodes;
}

function compileList(form: ListForm): ListNode {
  return { t: 'list', items: compileItems(form.items), line: form.line, column: form.column };
}

function compileForm(form: Form): Node {
  if (form.kind === 'list') return compileList(form);
  if (form.kind === 'string') return { t: 'str', value: stringValue(form.text) };
  return compileWord(form.text);
}

/**
 * At the top level a bare timing word (`1s`, `2s...`) takes every following form up to the next
 * timing word as its body, as the reference reader groups them.
 */
function groupTimers(nodes: Node[]): Node[] {
  const grouped: Node[] = [];
  let group: ListNode | undefined;
  for (const node of nodes) {
    if (node.t === 'timing') {
      group = { t: 'list', items: [node], line: 0, column: 0 };
      grouped.push(group);
    } else if (group !== undefined) group.items.push(node);
    else grouped.push(node);
  }
  return grouped;
}

/** Reads source with the validator's tokenizer and reader, then prepares it for evaluation. */
export function compileProgram(source: string): CompiledProgram {
  // The reference tests for chaos before it reads the program at all.
  if (isChaoticSource(source)) return { backdrop: [], statements: [], chaos: true };
  const { tokens } = tokenize(source);
  const multiLine = /[\r\n]/.test(source.trim());
  const balance = checkParenBalance(tokens);
  const extra = balance.unmatchedCloses[0];
  if (extra !== undefined) {
    return {
      backdrop: [],
      statements: [],
      chaos: false,
      discarded: `Unmatched ')' at line ${extra.line}, column ${extra.column}: the program was not run (the reference runtime discards such a program too)`,
    };
  }
  const { forms } = readProgram(tokens, multiLine);
  const backdropCount = backdropLength(forms);
  const backdrop = forms.slice(0, backdropCount).map(compileForm);
  const statements = groupTimers(compileItems(forms.slice(backdropCount)));
  const first = statements[0];
  if (first?.t === 'list') first.first = true;
  const program: CompiledProgram = { backdrop, statements, chaos: false };
  const open = balance.unclosedOpens[0];
  if (open !== undefined) {
    const count = balance.unclosedOpens.length;
    program.autoClosed = `${count} ')' missing (the first '(' left open is at line ${open.line}, column ${open.column}): closed at the end of the program, as the reference runtime does`;
  }
  return program;
}
