import { StreamLanguage, type StringStream } from '@codemirror/language';
import { isBuiltin } from '../../../domain/kidlisp/builtins.js';
import { isColorWord } from '../../../domain/kidlisp/colors.js';

/** Where a line stands: inside a string that a line break did not close, or not. */
interface State {
  inString: boolean;
}

const DELIMITER = /[\s()"';]/;

/** The rest of a string, up to and including its closing quote (or the line's end). */
function stringRest(stream: StringStream, state: State): string {
  let escaped = false;
  for (let char = stream.next(); char !== undefined && char !== null; char = stream.next()) {
    if (char === '"' && !escaped) {
      state.inString = false;
      return 'string';
    }
    escaped = !escaped && char === '\\';
  }
  state.inString = true;
  return 'string';
}

/**
 * KidLisp's tokens for highlighting: comments (`;` to the line's end), strings, numbers, parens,
 * `$code` embeds and `#code` paintings, built-in words and color names, and other words. The
 * validator (src/domain/kidlisp) decides what is right; this only colors.
 */
export const kidlispLanguage = StreamLanguage.define<State>({
  name: 'kidlisp',
  startState: () => ({ inString: false }),
  token(stream, state) {
    if (state.inString) return stringRest(stream, state);
    if (stream.eatSpace()) return null;
    const char = stream.peek();
    if (char === ';') {
      stream.skipToEnd();
      return 'comment';
    }
    if (char === '"') {
      stream.next();
      return stringRest(stream, state);
    }
    if (char === '(' || char === ')') {
      stream.next();
      return 'paren';
    }
    let word = '';
    while (!stream.eol() && !DELIMITER.test(stream.peek() ?? ' ')) word += stream.next();
    if (word === '') {
      stream.next();
      return null;
    }
    if (/^[-+]?(\d+\.?\d*|\.\d+)(s\.*)?$/.test(word)) return 'number';
    if (word.startsWith('$') || word.startsWith('#')) return 'link';
    const name = word.replace(/:.*$/, '');
    if (isBuiltin(name)) return 'keyword';
    if (isColorWord(word)) return 'atom';
    return 'variableName';
  },
  languageData: { commentTokens: { line: ';' }, closeBrackets: { brackets: ['(', '"'] } },
});
