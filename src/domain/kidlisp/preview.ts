import { formatCount } from '../format.js';
import { ANIMATION_NAMES, BACKGROUND_NAMES, INTERACTION_NAMES, isBuiltin } from './builtins.js';
import { isChaoticSource } from './chaos.js';
import { collectUserNames } from './definitions.js';
import { at, DiagnosticList } from './diagnostics.js';
import { isWord } from './forms.js';
import { backdropLength } from './layout-checks.js';
import { calledName, checkList } from './list-checks.js';
import { notDrawnWords } from './not-drawn.js';
import { checkParenBalance, readProgram } from './reader.js';
import { countLines, type Position, positionAt, type Token, tokenize } from './tokenizer.js';
import type { KidlispPreview, KidlispStats } from './types.js';
import { checkFadeDirections, checkWord, type WordUsage } from './word-checks.js';

export const KIDLISP_MAX_LENGTH = 50_000;

const START: Position = { line: 1, column: 1 };

function emptyStats(lines: number): KidlispStats {
  return {
    expressions: 0,
    functions_used: [],
    has_animation: false,
    has_interaction: false,
    has_wipe: false,
    lines,
    embeds: [],
    timing_words: [],
    not_drawn: [],
  };
}

function result(diagnostics: DiagnosticList, stats: KidlispStats): KidlispPreview {
  const sorted = diagnostics.sorted();
  const errors = sorted.filter((item) => item.severity === 'error').map((item) => item.message);
  const warnings = sorted.filter((item) => item.severity === 'warning').map((item) => item.message);
  return { valid: errors.length === 0, errors, warnings, stats, diagnostics: sorted };
}

/** Checks KidLisp source without running it. Never throws. */
export function previewKidlisp(source: string): KidlispPreview {
  try {
    return checkSource(typeof source === 'string' ? source : String(source));
  } catch (error) {
    // A bug here must not take the caller down; report it like any other problem.
    const diagnostics = new DiagnosticList();
    diagnostics.error(`The validator failed on this source (${String(error)})`, START);
    return result(diagnostics, emptyStats(0));
  }
}

function checkSource(source: string): KidlispPreview {
  const diagnostics = new DiagnosticList();
  if (source.length > KIDLISP_MAX_LENGTH) {
    const limit = positionAt(source, KIDLISP_MAX_LENGTH);
    diagnostics.error(
      `Source is ${formatCount(source.length)} characters, over the limit of ${formatCount(KIDLISP_MAX_LENGTH)} (the excess starts ${at(limit)})`,
      limit,
    );
    return result(diagnostics, emptyStats(countLines(source)));
  }
  const trimmed = source.trim();
  if (trimmed === '') {
    diagnostics.error(
      `Source is empty ${at(START)}: write at least one form, e.g. (wipe blue)`,
      START,
    );
    return result(diagnostics, emptyStats(countLines(source)));
  }

  const { tokens, lines } = tokenize(source);
  if (tokens.length === 0) {
    const start = positionAt(source, source.length - source.trimStart().length);
    diagnostics.warning(`Source has only comments ${at(start)}: nothing will run`, start);
    return result(diagnostics, emptyStats(lines));
  }

  reportStringsAndParens(tokens, diagnostics);
  const multiLine = /[\r\n]/.test(trimmed);
  const { forms, lists } = readProgram(tokens, multiLine);
  const userNames = collectUserNames(lists);
  const backdrop = backdropLength(forms);
  const backdropList = backdrop > 0 && forms[0]?.kind === 'list' ? forms[0] : undefined;
  const calls = new Set<string>();
  const usage: WordUsage = { embeds: new Set(), timingWords: new Set() };

  for (const list of lists) {
    if (list === backdropList) continue;
    checkList(list, userNames, diagnostics);
    const name = calledName(list.items[0]);
    if (name !== undefined) calls.add(name);
  }
  checkFadeDirections(forms, diagnostics);
  for (const list of lists) checkFadeDirections(list.items, diagnostics);
  const notDrawn = notDrawnWords(forms, lists);
  forms.forEach((form, index) => {
    if (form.kind === 'list') return;
    // A bare built-in name at the top level is called with no arguments.
    if (index >= backdrop && isWord(form) && isBuiltin(form.text)) calls.add(form.text);
    if (isWord(form)) checkWord(form, false, userNames, diagnostics, usage);
  });
  for (const list of lists) {
    list.items.forEach((item, index) => {
      if (isWord(item)) checkWord(item, index === 0, userNames, diagnostics, usage);
    });
  }

  const first = tokens[0] ?? START;
  const noise = isChaoticSource(source);
  if (noise) {
    diagnostics.warning(
      !multiLine && tokens.every((token) => token.kind === 'word' || token.kind === 'string')
        ? `One line without parentheses or commas ${at(first)} is not run: it is drawn in chaos mode (a picture made from its letters) unless it is a single known word or color; write ${suggestParens(trimmed)}`
        : `This source looks like random typing ${at(first)} (few known words, many symbols or unbalanced parentheses): it is drawn in chaos mode (a picture made from its letters), not run`,
      first,
    );
  }
  const hasWipe = backdrop > 0 || [...BACKGROUND_NAMES].some((name) => calls.has(name));
  if (!hasWipe && !noise) {
    diagnostics.warning(
      `No background ${at(first)}: start with a color (black), a fade (fade:red-blue) or r g b, or call (wipe color)`,
      first,
    );
  }

  const stats: KidlispStats = {
    expressions: lists.length,
    functions_used: [...calls].sort(),
    has_animation:
      usage.timingWords.size > 0 || [...ANIMATION_NAMES].some((name) => calls.has(name)),
    has_interaction: [...INTERACTION_NAMES].some((name) => calls.has(name)),
    has_wipe: hasWipe,
    lines,
    embeds: [...usage.embeds].sort(),
    timing_words: [...usage.timingWords].sort(),
    not_drawn: notDrawn,
  };
  return result(diagnostics, stats);
}

function reportStringsAndParens(tokens: readonly Token[], diagnostics: DiagnosticList): void {
  for (const token of tokens) {
    if (token.unterminated === true) {
      diagnostics.error(
        `Unterminated string ${at(token)}: a string must close on the line where it starts`,
        token,
      );
    }
  }
  const { unmatchedCloses, unclosedOpens } = checkParenBalance(tokens);
  for (const [index, close] of unmatchedCloses.entries()) {
    if (!diagnostics.wants('error')) {
      diagnostics.countMore('error', unmatchedCloses.length - index);
      break;
    }
    diagnostics.error(`Unmatched ')' ${at(close)}: the runtime discards the whole program`, close);
  }
  // The reference closes what is left open at the end of the program and runs it.
  for (const [index, open] of unclosedOpens.entries()) {
    if (!diagnostics.wants('warning')) {
      diagnostics.countMore('warning', unclosedOpens.length - index);
      break;
    }
    diagnostics.warning(
      `'(' ${at(open)} is never closed: the runtime closes it at the end of the program, so every form after it is read inside it; add ')' where the form ends`,
      open,
    );
  }
}

/** A way to write the line that is not chaos; the reference calls any long text without letters chaos. */
function suggestParens(trimmed: string): string {
  if (isChaoticSource(`(${trimmed})`)) return 'known words in parentheses, e.g. (wipe blue)';
  return trimmed.length <= 40 ? `(${trimmed})` : 'it in parentheses';
}
