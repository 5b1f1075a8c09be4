import { type Form, isWord, type ListForm } from './forms.js';
import { isUndrawnBuiltin } from './runtime/drawn-words.js';
import { withoutColonParameter } from './words.js';

/**
 * Words the runtime would not draw, sorted and unique: built-ins it lacks (`noise`, `melody`) and
 * live input values that read as 0 (`amp`, `dx`). They are not warnings: the program is fine,
 * this viewer lacks them, and its notice names the same words. (`#code` paintings are drawn.)
 */
export function notDrawnWords(forms: readonly Form[], lists: readonly ListForm[]): string[] {
  const names = new Set<string>();
  const visit = (form: Form | undefined) => {
    if (isWord(form) && isUndrawnBuiltin(form.text)) names.add(withoutColonParameter(form.text));
  };
  forms.forEach(visit);
  for (const list of lists) list.items.forEach(visit);
  return [...names].sort();
}
