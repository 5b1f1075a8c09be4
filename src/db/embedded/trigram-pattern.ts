import { addTrigrams, foldChar } from './trigrams.js';

/**
 * What every match of a regular expression contains: all of `all` (folded trigrams), and for
 * each list in `either`, what one of its branches requires.
 */
export interface TrigramQuery {
  all: string[];
  either: TrigramQuery[][];
}

/** Some trigram narrows the candidates. */
export const usable = (query: TrigramQuery) => query.all.length > 0 || query.either.length > 0;

/** One character of a pattern as the index sees it: folded, or a UTF-16 unit to fold later. */
interface Unit {
  text: string;
  folded: boolean;
}

type Atom = { unit: Unit } | { query: TrigramQuery } | 'other';

const NONE: TrigramQuery = { all: [], either: [] };
const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const QUANTIFIER = /^\{(\d+)(,\d*)?\}/;
const controlEscapes: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  f: '\f',
  v: '\v',
};

/**
 * The trigrams every match of `source` must contain, read from the pattern's syntax (a JS
 * pattern without the `u` flag, as ./regex.ts builds them: `i` already rewritten into classes
 * such as `[aA]`). Literal characters in a row give their trigrams; a class whose members all
 * fold to one character counts as that character; a quantifier that may repeat or skip a
 * character ends the row; a group adds what it requires; an alternation counts only when
 * every branch requires something. What cannot be bounded adds nothing, so the result may
 * ask for less than a match holds, never more.
 */
export function patternTrigrams(source: string): TrigramQuery {
  try {
    const reader = new PatternReader(source);
    const query = reader.disjunction();
    return reader.at === source.length ? query : NONE;
  } catch {
    return NONE;
  }
}

class PatternReader {
  at = 0;
  constructor(readonly source: string) {}

  disjunction(): TrigramQuery {
    const branches = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0] as TrigramQuery;
    return branches.every(usable) ? { all: [], either: [branches] } : NONE;
  }

  sequence(): TrigramQuery {
    const all = new Set<string>();
    const either: TrigramQuery[][] = [];
    let row: Unit[] = [];
    const endRow = () => {
      rowTrigrams(row, all);
      row = [];
    };
    while (this.at < this.source.length && !'|)'.includes(this.source[this.at] as string)) {
      const atom = this.atom();
      const min = this.quantifier();
      if (atom !== 'other' && 'unit' in atom) {
        if (min !== 0) row.push(atom.unit);
        if (min !== undefined) endRow();
        continue;
      }
      endRow();
      if (atom !== 'other' && min !== 0) {
        for (const trigram of atom.query.all) all.add(trigram);
        either.push(...atom.query.either);
      }
    }
    endRow();
    return { all: [...all], either };
  }

  /** The least number of times a quantifier repeats what precedes it; undefined: none. */
  quantifier(): number | undefined {
    const char = this.source[this.at];
    let min: number | undefined;
    if (char === '*' || char === '?') min = 0;
    else if (char === '+') min = 1;
    else if (char === '{') {
      const found = QUANTIFIER.exec(this.source.slice(this.at));
      if (!found) return undefined;
      min = Number(found[1]);
      this.at += found[0].length - 1;
    } else return undefined;
    this.at++;
    if (this.source[this.at] === '?') this.at++;
    return min;
  }

  atom(): Atom {
    const char = this.source[this.at++] as string;
    if (char === '(') return this.group();
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape() ?? 'other';
    if (char === '.' || char === '^' || char === '$') return 'other';
    return { unit: { text: char, folded: false } };
  }

  group(): Atom {
    let lookaround = false;
    if (this.source[this.at] === '?') {
      const rest = this.source.slice(this.at);
      const opening = /^\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(rest);
      if (!opening) throw new Error('unknown group');
      lookaround = !opening[1]?.startsWith(':') && !/^<[A-Za-z_$]/.test(opening[1] ?? '');
      this.at += opening[0].length;
    }
    const query = this.disjunction();
    if (this.source[this.at++] !== ')') throw new Error('unclosed group');
    return lookaround ? 'other' : { query };
  }

  /** A class whose members all fold to one character is that character; any other, 'other'. */
  characterClass(): Atom {
    const members: string[] = [];
    let bounded = this.source[this.at] !== '^';
    while (this.source[this.at] !== ']') {
      if (this.at >= this.source.length) throw new Error('unclosed class');
      const char = this.source[this.at++] as string;
      const member = char === '\\' ? this.escape() : { unit: { text: char, folded: false } };
      if (!member || 'query' in member || this.source[this.at] === '-') bounded = false;
      else members.push(member.unit.text);
    }
    this.at++;
    const folded = new Set(members.map((m) => (isSurrogate(m.charCodeAt(0)) ? '' : foldChar(m))));
    const [only] = folded;
    if (!bounded || folded.size !== 1 || !only) return 'other';
    return { unit: { text: only, folded: true } };
  }

  /** The character an escape stands for (after the backslash); undefined for a set or assertion. */
  escape(): { unit: Unit } | undefined {
    const char = this.source[this.at++] as string;
    const unit = (text: string) => ({ unit: { text, folded: false } });
    if (controlEscapes[char]) return unit(controlEscapes[char] as string);
    if (char === '0' && !/[0-9]/.test(this.source[this.at] ?? '')) return unit('\0');
    // Octal escapes and backreferences (which ./regex.ts refuses) span an unknown length.
    if (/[0-9]/.test(char) || (char === 'k' && this.source[this.at] === '<'))
      throw new Error('a backreference or octal escape');
    if (char === 'c' && /[A-Za-z]/.test(this.source[this.at] ?? ''))
      return unit(String.fromCharCode((this.source.charCodeAt(this.at++) as number) % 32));
    const hex = char === 'x' ? 2 : char === 'u' ? 4 : 0;
    if (hex > 0) {
      const digits = this.source.slice(this.at, this.at + hex);
      if (!new RegExp(`^[0-9A-Fa-f]{${hex}}$`).test(digits)) return undefined;
      this.at += hex;
      return unit(String.fromCharCode(Number.parseInt(digits, 16)));
    }
    if (/[0-9A-Za-z_]/.test(char)) return undefined;
    return unit(char);
  }
}

/** Adds the trigrams of a row of consecutive characters; a lone surrogate splits the row. */
function rowTrigrams(row: Unit[], into: Set<string>): void {
  let chars: string[] = [];
  for (let i = 0; i < row.length; i++) {
    const { text, folded } = row[i] as Unit;
    const code = text.charCodeAt(0);
    const next = row[i + 1];
    if (!isSurrogate(code)) chars.push(folded ? text : foldChar(text));
    else if (isHigh(code) && next && !next.folded && isLow(next.text.charCodeAt(0))) {
      chars.push(foldChar(text + next.text));
      i++;
    } else {
      addTrigrams(chars, into);
      chars = [];
    }
  }
  addTrigrams(chars, into);
}
