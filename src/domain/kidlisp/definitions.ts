import { REPEAT_NAMES } from './builtins.js';
import { type Form, isWord, type ListForm } from './forms.js';
import { isIdentifier } from './words.js';

/** Names the program defines itself: `def`/`later` names, `later` parameters, loop iterators. */
export function collectUserNames(lists: readonly ListForm[]): Set<string> {
  const names = new Set<string>();
  const addIfName = (form: Form | undefined): void => {
    if (isWord(form) && isIdentifier(form.text)) names.add(form.text);
  };
  for (const list of lists) {
    const head = list.items[0];
    if (!isWord(head)) continue;
    if (head.text === 'def') addIfName(list.items[1]);
    else if (head.text === 'later') {
      addIfName(list.items[1]);
      for (const parameter of laterParameters(list)) addIfName(parameter);
    } else if (REPEAT_NAMES.has(head.text)) addIfName(repeatIterator(list));
  }
  return names;
}

/** In `(later name a b (body...))` every atom before the first list is a parameter. */
export function laterParameters(list: ListForm): Form[] {
  const parameters: Form[] = [];
  for (let i = 2; i < list.items.length; i++) {
    const item = list.items[i];
    if (item === undefined || item.kind === 'list') break;
    parameters.push(item);
  }
  return parameters;
}

/** `(repeat n i body...)`: with three or more arguments, a bare word in second place names the loop variable. */
function repeatIterator(list: ListForm): Form | undefined {
  const candidate = list.items[2];
  return list.items.length >= 4 && isWord(candidate) ? candidate : undefined;
}
