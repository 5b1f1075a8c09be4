import { missingNameHint } from './builtins.js';
import { checkFade, isColorWord, isFadeWord } from './colors.js';
import { at, type DiagnosticList } from './diagnostics.js';
import { type AtomForm, type Form, isWord, takesDirectionList } from './forms.js';
import {
  isEmbedCode,
  isFrameTimingWord,
  isTimingWord,
  isTruncatedNumber,
  looksLikeHexColor,
  withoutColonParameter,
} from './words.js';

export interface WordUsage {
  embeds: Set<string>;
  timingWords: Set<string>;
}

/** Checks one bare word wherever it stands; strings are never checked. */
export function checkWord(
  atom: AtomForm,
  isHead: boolean,
  userNames: ReadonlySet<string>,
  diagnostics: DiagnosticList,
  usage: WordUsage,
): void {
  const word = atom.text;
  if (isTimingWord(word)) {
    usage.timingWords.add(word);
    return;
  }
  if (isFrameTimingWord(word)) {
    diagnostics.warning(
      `'${word}' ${at(atom)} is not a timing word: there is no frame unit, so it reads as the number ${parseFloat(word)}; use seconds (0.1s) or (n ...) to run every (n+1)th frame`,
      atom,
    );
    return;
  }
  if (isTruncatedNumber(word)) {
    diagnostics.warning(
      `'${word}' ${at(atom)} reads as the number ${parseFloat(word)}: a word that starts with a digit is cut short; put the name first (width*2) or use (* 2 width)`,
      atom,
    );
    return;
  }
  if (isFadeWord(word)) {
    checkFadeWord(atom, diagnostics);
    return;
  }
  if (looksLikeHexColor(word)) {
    diagnostics.warning(
      `'${word}' ${at(atom)} is a painting code, not a color: KidLisp has no #rrggbb colors; use a color name or r g b numbers`,
      atom,
    );
    return;
  }
  const name = withoutColonParameter(word);
  if (isEmbedCode(name)) {
    usage.embeds.add(name);
    return;
  }
  // As an argument, `tan` is a color; as a head it is the missing tangent.
  const hint = missingNameHint(word);
  if (hint !== undefined && !userNames.has(word) && (isHead || !isColorWord(word))) {
    diagnostics.warning(`'${word}' ${at(atom)} does not exist in KidLisp: ${hint}`, atom);
  }
}

function checkFadeWord(atom: AtomForm, diagnostics: DiagnosticList): void {
  const { colors, unknownColors } = checkFade(atom.text);
  for (const color of unknownColors) {
    const shown = color === '' ? 'an empty color' : `'${color}'`;
    diagnostics.warning(
      `Fade '${atom.text}' ${at(atom)} has ${shown}, which is not a known color`,
      atom,
    );
  }
  if (colors.length < 2) {
    diagnostics.warning(
      `Fade '${atom.text}' ${at(atom)} needs at least two colors (fade:red-blue)`,
      atom,
    );
  }
}

/**
 * `fade:red-blue:` takes the list written right after it as its direction
 * (`fade:red-blue:(* frame 5)`); without one the direction is empty, and a list after a space
 * reads as the next argument (an alpha for ink and wipe).
 */
export function checkFadeDirections(items: readonly Form[], diagnostics: DiagnosticList): void {
  items.forEach((item, index) => {
    if (!isWord(item) || !isFadeWord(item.text) || !item.text.endsWith(':')) return;
    if (takesDirectionList(item, items[index + 1])) return;
    diagnostics.warning(
      `Fade '${item.text}' ${at(item)} ends with ':' but no (expression) follows right after it, so it runs left to right; write the direction without a space, e.g. ${item.text}(* frame 5), or a word such as vertical or 45`,
      item,
    );
  });
}
