export interface KidlispDiagnostic {
  severity: 'error' | 'warning';
  message: string;
  line: number;
  column: number;
}

export interface KidlispStats {
  /** Lists in the program, including the parens the layout rules imply. */
  expressions: number;
  /** Sorted unique words in head position (the backdrop color is not a call). */
  functions_used: string[];
  has_animation: boolean;
  has_interaction: boolean;
  /** The program clears the screen: `wipe`/`backdrop`, or a leading color, fade or RGB. */
  has_wipe: boolean;
  /** Lines as an editor shows them. */
  lines: number;
  /** Sorted unique `$code` pieces it embeds. */
  embeds: string[];
  /** Sorted unique timing words as written (`1s`, `2s...`). */
  timing_words: string[];
  /**
   * Sorted unique words the runtime would not draw: built-ins it lacks (`noise`, `melody`), live
   * input values that read as 0 (`amp`, `dx`) and `#code` paintings.
   */
  not_drawn: string[];
}

export interface KidlispPreview {
  valid: boolean;
  errors: string[];
  warnings: string[];
  stats: KidlispStats;
  diagnostics: KidlispDiagnostic[];
}
