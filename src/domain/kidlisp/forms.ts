import type { Position, Token } from './tokenizer.js';

/** A bare word or a string literal; the reader keeps the token itself as the atom. */
export type AtomForm = Token & { kind: 'word' | 'string' };

export interface ListForm extends Position {
  kind: 'list';
  items: Form[];
  /** Parens the layout rules added (a bare line or a comma segment). */
  implicit: boolean;
}

export type Form = AtomForm | ListForm;

/** A bare word: code, not a string literal. */
export function isWord(form: Form | undefined): form is AtomForm {
  return form !== undefined && form.kind === 'word';
}

/**
 * `fade:red-blue:(* frame 5)`: a fade word ending with `:` and a list written right after it, on
 * the same line without a space. The list is the fade's direction, evaluated each time it is used.
 */
export function takesDirectionList(word: AtomForm, next: Form | undefined): next is ListForm {
  return (
    next?.kind === 'list' &&
    !next.implicit &&
    word.text.startsWith('fade:') &&
    word.text.endsWith(':') &&
    next.line === word.line &&
    next.column === word.column + word.text.length
  );
}
