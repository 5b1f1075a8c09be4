import { type Form, isWord, type ListForm } from './forms.js';
import { isUndrawnBuiltin } from './runtime/drawn-words.js';
import { isPaintingCode, withoutColonParameter } from './words.js';

/**
 * Words the runtime would not draw, sorted and unique: built-ins it lacks (`noise`, `melody`),
 * live input values that read as 0 (`amp`, `dx`) and `#code` paintings. They are not warnings:
 * the program is fine, this viewer lacks them, and its notice names the same words.
 */
export function notDrawnWords(forms: readonly Form[], lists: readonly ListForm[]): string[] {
  const names = new Set<string>();
  const visit = (form: Form | undefined) => {
    if (!isWord(form)) return;
    if (isPaintingCode(form.text)) names.add(form.text);
    else if (isUndrawnBuiltin(form.text)) names.add(withoutColonParameter(form.text));
  };
  forms.forEach(visit);
  for (const list of lists) list.items.forEach(visit);
  return [...names].sort();
}
