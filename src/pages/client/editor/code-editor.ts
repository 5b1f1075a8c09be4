import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import {
  bracketMatching,
  HighlightStyle,
  type Language,
  syntaxHighlighting,
} from '@codemirror/language';
import { type Diagnostic, linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension, Prec } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';

export interface CodeEditorOptions {
  /** The element the editor replaces the textarea in; the editor lives in its shadow root. */
  host: HTMLElement;
  doc: string;
  /** The editor's accessible name. */
  label: string;
  language?: Language;
  /** Problems of the source, shown inline (the linter runs shortly after the person stops typing). */
  lint?: (source: string) => Diagnostic[];
  onChange(source: string): void;
  /** Ctrl+Enter (Cmd+Enter on a Mac). */
  onRun(): void;
}

/** The page's own colors (public/pages.css custom properties reach into the shadow root). */
const highlighting = HighlightStyle.define([
  { tag: tags.comment, color: 'var(--tok-comment)', fontStyle: 'italic' },
  { tag: tags.string, color: 'var(--tok-string)' },
  { tag: tags.number, color: 'var(--tok-number)' },
  { tag: tags.keyword, color: 'var(--tok-keyword)', fontWeight: '600' },
  { tag: tags.atom, color: 'var(--tok-number)' },
  { tag: tags.link, color: 'var(--tok-embed)' },
  { tag: tags.paren, color: 'var(--tok-paren)' },
]);

const theme = EditorView.theme({
  '&': {
    border: '1px solid var(--line)',
    borderRadius: '6px',
    background: 'var(--bg)',
    color: 'var(--fg)',
    fontSize: '15px',
  },
  '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '2px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    minHeight: '16em',
    maxHeight: '32em',
  },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-gutters': {
    background: 'var(--panel)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '.cm-activeLine, .cm-activeLineGutter': {
    background: 'color-mix(in srgb, var(--accent) 8%, transparent)',
  },
  '&.cm-focused .cm-matchingBracket': {
    background: 'color-mix(in srgb, var(--accent) 25%, transparent)',
    outline: '1px solid var(--accent)',
  },
});

/**
 * Typing over a selection is done by the editor, not by the browser: Chrome's own editing, when
 * it deletes a selection across lines, merges the lines' elements and writes a `style` attribute
 * to keep their look, which the page's policy refuses (and reports). CodeMirror redraws either way.
 */
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.data === null) return false;
    if (view.state.selection.ranges.every((range) => range.empty) || view.composing) return false;
    event.preventDefault();
    view.dispatch({
      ...view.state.replaceSelection(event.data),
      scrollIntoView: true,
      userEvent: 'input.type',
    });
    return true;
  },
});

/**
 * A CodeMirror 6 editor in a shadow root of `host`. CodeMirror's styles (style-mod) then go into
 * a constructed stylesheet adopted by that shadow root, which the page's `style-src 'self'`
 * does not govern (the CSSOM is not inline style); in the document itself they would be a
 * `<style>` element the policy refuses. Tab is not bound: it leaves the editor, as everywhere.
 */
export function mountCodeEditor(options: CodeEditorOptions): EditorView {
  const root = options.host.attachShadow({ mode: 'open' });
  const extensions: Extension[] = [
    lineNumbers(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(highlighting),
    theme,
    typeOverSelection,
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': options.label, spellcheck: 'false' }),
    Prec.highest(
      keymap.of([
        {
          key: 'Mod-Enter',
          run: () => {
            options.onRun();
            return true;
          },
        },
      ]),
    ),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap]),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange(update.state.doc.toString());
    }),
  ];
  if (options.language) extensions.push(options.language);
  const lint = options.lint;
  if (lint)
    extensions.push(
      linter((view) => lint(view.state.doc.toString()), { delay: 200 }),
      lintGutter(),
    );
  return new EditorView({
    state: EditorState.create({ doc: options.doc, extensions }),
    parent: root,
    root,
  });
}
