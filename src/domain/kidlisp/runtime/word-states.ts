/**
 * What this runtime does with each word of the language, read from its own table of built-ins
 * (library.ts): the KidLisp reference resource lists it, and `preview_kidlisp` names the words of
 * a program that a viewer would not draw, without running the program.
 */
import { BUILTIN_GROUPS, isBuiltin, LIVE_INPUT_VALUES } from '../builtins.js';
import { isColorWord, isFadeWord } from '../colors.js';
import { isPaintingCode, withoutColonParameter } from '../words.js';
import { compileProgram, type InfixExpression, type Node } from './compile.js';
import { BUILTINS } from './library.js';

/** `runs`: the runtime draws or evaluates it; `reads as 0`: a value from outside it cannot know. */
export type WordState = 'runs' | 'reads as 0' | 'not drawn';

export interface WordEntry {
  group: string;
  word: string;
  state: WordState;
}

const LIVE_INPUT: ReadonlySet<string> = new Set(LIVE_INPUT_VALUES);

/** The entries `report().unsupported` uses for these (interpreter.ts); a test holds the two together. */
const PAINTING_ENTRY = '#code paintings (stamp)';
const CHAOS_ENTRY = 'chaos mode (one line without parentheses or commas)';

export function wordState(word: string): WordState {
  if (LIVE_INPUT.has(word)) return 'reads as 0';
  return BUILTINS.has(word) ? 'runs' : 'not drawn';
}

/** Every built-in word of the language, by family, with its state in this runtime. */
export function wordStates(): WordEntry[] {
  return Object.entries(BUILTIN_GROUPS).flatMap(([group, words]) =>
    words.map((word) => ({ group, word, state: wordState(word) })),
  );
}

/** Names the program gives itself (`def`, `now`, `later` and its parameters): never built-ins there. */
function ownNames(nodes: readonly Node[]): Set<string> {
  const names = new Set<string>();
  const visit = (node: Node) => {
    if (node.t !== 'list') return;
    const head = node.items[0];
    if (head?.t === 'word' && ['def', 'now', 'later'].includes(head.name)) {
      const params = head.name === 'later' ? node.items.slice(1) : node.items.slice(1, 2);
      for (const param of params) if (param.t === 'word') names.add(param.name);
    }
    node.items.forEach(visit);
  };
  nodes.forEach(visit);
  return names;
}

function infixNames(expression: InfixExpression): string[] {
  if (expression.kind === 'name') return [expression.name];
  if (expression.kind === 'op')
    return [...infixNames(expression.left), ...infixNames(expression.right)];
  return [];
}

/**
 * The words of `source` a viewer of this service would not draw, named as the runtime's
 * `report().unsupported` names them: built-ins it lacks (in call position or bare), values it
 * cannot know (read as 0), `#code` paintings and chaos mode. Read without running the program,
 * so words behind a timer or a condition count too. Never throws.
 */
export function wordsNotDrawn(source: string): string[] {
  let program: ReturnType<typeof compileProgram>;
  try {
    program = compileProgram(typeof source === 'string' ? source : String(source));
  } catch {
    return [];
  }
  const found = new Set<string>();
  if (program.chaos) found.add(CHAOS_ENTRY);
  const nodes = [...program.backdrop, ...program.statements];
  const own = ownNames(nodes);
  const check = (written: string) => {
    const name = withoutColonParameter(written);
    if (isPaintingCode(name)) found.add(PAINTING_ENTRY);
    else if (own.has(name)) return;
    else if (LIVE_INPUT.has(name)) found.add(name);
    else if (BUILTINS.has(name) || isColorWord(name) || isFadeWord(name)) return;
    else if (isBuiltin(name)) found.add(name);
  };
  const visit = (node: Node): void => {
    switch (node.t) {
      case 'list':
        node.items.forEach(visit);
        return;
      case 'trailing':
        visit(node.left);
        return;
      case 'word':
      case 'neg':
        check(node.name);
        return;
      case 'infix':
        for (const name of infixNames(node.expression)) if (LIVE_INPUT.has(name)) found.add(name);
        return;
    }
  };
  nodes.forEach(visit);
  return [...found];
}
