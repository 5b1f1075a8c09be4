import { escapeHtml, raw, type SafeHtml } from '../http/html/html.js';

/** Token classes a stylesheet colours; anything unmatched is plain escaped text. */
type Rule = [className: string, pattern: string];

const JS_KEYWORDS =
  'await|break|case|catch|class|const|continue|debugger|default|delete|do|else|export|extends|finally|for|from|function|' +
  'if|import|in|instanceof|let|new|of|return|static|super|switch|this|throw|try|typeof|var|void|while|with|yield|async|' +
  'true|false|null|undefined';

const JS_RULES: Rule[] = [
  ['comment', String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`],
  [
    'string',
    String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|\x60(?:[^\x60\\]|\\[\s\S])*\x60?`,
  ],
  ['number', String.raw`\b(?:0[xX][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?)\b`],
  ['keyword', String.raw`\b(?:${JS_KEYWORDS})\b`],
];

const LISP_RULES: Rule[] = [
  ['comment', String.raw`;[^\n]*`],
  ['string', String.raw`"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?`],
  ['number', String.raw`-?\b\d+(?:\.\d+)?s?\b`],
  ['paren', '[()]'],
  ['embed', String.raw`\$[A-Za-z0-9_-]+`],
];

function highlighter(rules: Rule[]): (source: string) => SafeHtml {
  const pattern = new RegExp(rules.map(([, body]) => `(${body})`).join('|'), 'g');
  return (source) => {
    let out = '';
    let last = 0;
    for (const match of source.matchAll(pattern)) {
      const index = match.index ?? 0;
      if (match[0] === '') continue;
      const group = match.slice(1).findIndex((value) => value !== undefined);
      out += escapeHtml(source.slice(last, index));
      out += `<span class="tok-${rules[group]?.[0] ?? 'plain'}">${escapeHtml(match[0])}</span>`;
      last = index + match[0].length;
    }
    return raw(out + escapeHtml(source.slice(last)));
  };
}

export const highlightJavascript = highlighter(JS_RULES);
export const highlightLisp = highlighter(LISP_RULES);

/** Each line highlighted on its own, for line-numbered views (a string spanning lines loses its colour after the first). */
export function highlightedLines(
  source: string,
  highlight: (text: string) => SafeHtml,
): SafeHtml[] {
  return source.split('\n').map((line) => highlight(line));
}
