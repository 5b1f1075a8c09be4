import { arityOf, isBuiltin, missingNameHint, REPEAT_LIMIT, REPEAT_NAMES } from './builtins.js';
import { isColorWord, isFadeWord } from './colors.js';
import { laterParameters } from './definitions.js';
import { at, type DiagnosticList } from './diagnostics.js';
import { type AtomForm, type Form, isWord, type ListForm } from './forms.js';
import {
  isCleanNumber,
  isEmbedCode,
  isFrameTimingWord,
  isIdentifier,
  isPaintingCode,
  isTimingWord,
  isTruncatedNumber,
  withoutColonParameter,
} from './words.js';

/**
 * The name a head calls, or undefined when the head is not a plain name
 * (a number, timing word, `$code`, `#code`, fade, list or string).
 */
export function calledName(head: Form | undefined): string | undefined {
  if (!isWord(head)) return undefined;
  const word = head.text;
  if (
    isCleanNumber(word) ||
    isTimingWord(word) ||
    isFrameTimingWord(word) ||
    isTruncatedNumber(word)
  )
    return undefined;
  if (word.startsWith('$') || word.startsWith('#') || isFadeWord(word)) return undefined;
  return withoutColonParameter(word);
}

export function checkList(
  list: ListForm,
  userNames: ReadonlySet<string>,
  diagnostics: DiagnosticList,
): void {
  const head = list.items[0];
  if (!isWord(head)) return;
  checkHead(head, userNames, diagnostics);
  const name = calledName(head);
  if (name === undefined || userNames.has(name)) return;
  checkArity(list, head, name, diagnostics);
  if (name === 'def') checkDefinedName(list.items[1], 'def', diagnostics);
  else if (name === 'later') checkLater(list, head, diagnostics);
  else if (REPEAT_NAMES.has(name)) checkRepeatCount(list, head, name, diagnostics);
  else if (name === 'if') checkIfBody(list, head, diagnostics);
}

function checkHead(
  head: AtomForm,
  userNames: ReadonlySet<string>,
  diagnostics: DiagnosticList,
): void {
  const word = head.text;
  if (word.startsWith('$')) {
    if (!isEmbedCode(withoutColonParameter(word))) {
      diagnostics.warning(
        `'${word}' ${at(head)} is not a valid $code: $ followed by 3 to 12 letters or digits`,
        head,
      );
    }
    return;
  }
  if (word.startsWith('#')) {
    if (!isPaintingCode(word)) {
      diagnostics.warning(
        `'${word}' ${at(head)} is not a valid painting code: # followed by 1 to 8 letters or digits`,
        head,
      );
    }
    return;
  }
  const name = calledName(head);
  if (name === undefined || missingNameHint(name) !== undefined) return;
  if (isBuiltin(name) || isColorWord(name) || userNames.has(name) || userNames.has(word)) return;
  diagnostics.warning(
    `Unknown word '${word}' ${at(head)}: not a built-in, color or defined name`,
    head,
  );
}

function checkArity(
  list: ListForm,
  head: AtomForm,
  name: string,
  diagnostics: DiagnosticList,
): void {
  const arity = arityOf(name);
  if (arity === undefined) return;
  const given = list.items.length - 1;
  const plural = (count: number): string => `${count} argument${count === 1 ? '' : 's'}`;
  if (arity.exact !== undefined && given !== arity.exact) {
    diagnostics.warning(
      `'${name}' ${at(head)} takes exactly ${plural(arity.exact)} (${arity.usage}), got ${given}; the runtime skips it`,
      head,
    );
  } else if (given < arity.min) {
    diagnostics.warning(
      `'${name}' ${at(head)} needs at least ${plural(arity.min)} (${arity.usage}), got ${given}`,
      head,
    );
  }
}

/** Names for `def`/`later`: a dash is subtraction, so the runtime silently ignores the definition. */
function checkDefinedName(
  form: Form | undefined,
  definer: string,
  diagnostics: DiagnosticList,
  role = 'name',
): void {
  if (form === undefined) return;
  if (isWord(form) && form.text.includes('-')) {
    const suggestion = form.text.replaceAll('-', '_');
    diagnostics.error(
      `Dash in the ${definer} ${role} '${form.text}' ${at(form)}: a dash means subtraction, so the runtime ignores it; use '${suggestion}'`,
      form,
    );
    return;
  }
  if (!isWord(form) || !isIdentifier(form.text)) {
    const shown = form.kind === 'list' ? 'a list' : `'${form.text}'`;
    diagnostics.warning(
      `${shown} ${at(form)} is not a valid ${definer} ${role}: use letters, digits and _, starting with a letter, _ or $`,
      form,
    );
  }
}

function checkLater(list: ListForm, head: AtomForm, diagnostics: DiagnosticList): void {
  checkDefinedName(list.items[1], 'later', diagnostics);
  for (const parameter of laterParameters(list))
    checkDefinedName(parameter, 'later', diagnostics, 'parameter');
  const hasBody = list.items.some((item, index) => index >= 2 && item.kind === 'list');
  if (list.items.length >= 3 && !hasBody) {
    diagnostics.warning(
      `'later' ${at(head)} needs a body in parentheses (later name params... (body))`,
      head,
    );
  }
}

function checkRepeatCount(
  list: ListForm,
  head: AtomForm,
  name: string,
  diagnostics: DiagnosticList,
): void {
  const count = list.items[1];
  if (!isWord(count) || !isCleanNumber(count.text)) return;
  const value = Number(count.text);
  if (value > REPEAT_LIMIT) {
    diagnostics.warning(
      `'${name}' ${at(head)} repeats ${count.text} times, over the limit of 10,000; the runtime skips it`,
      count,
    );
  } else if (value < 0) {
    diagnostics.warning(
      `'${name}' ${at(head)} has a negative count ${count.text}; the runtime skips it`,
      count,
    );
  }
}

function checkIfBody(list: ListForm, head: AtomForm, diagnostics: DiagnosticList): void {
  const bodyForms = list.items.length - 2;
  if (bodyForms < 2) return;
  diagnostics.warning(
    `'if' ${at(head)} has ${bodyForms} forms after its condition: all of them run when it is true (there is no else; use (not condition ...) for the other case)`,
    head,
  );
}
