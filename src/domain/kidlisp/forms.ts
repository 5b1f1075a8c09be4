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
