import type { Language } from '@codemirror/language';
import type { Diagnostic } from '@codemirror/lint';
import type { EditorView } from '@codemirror/view';
import { publishFromBrowser } from '../publish-client.js';
import { mountCodeEditor } from './code-editor.js';
import { type Draft, draftStore } from './draft.js';

/** What the server wrote into #editor-data (src/pages/editor/editor-page.ts). */
export interface EditorData {
  kind: 'kidlisp' | 'clock';
  remixOf: string | null;
  source: string;
}

export function readEditorData(): EditorData {
  const text = document.getElementById('editor-data')?.textContent ?? '{}';
  return JSON.parse(text) as EditorData;
}

export const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** One problem as the list under the editor says it. */
export interface ListedProblem {
  severity: 'error' | 'warning';
  message: string;
  line?: number;
  column?: number;
}

/** The list under the editor: every problem in words, for those who do not see the inline marks. */
export function listProblems(problems: readonly ListedProblem[]): void {
  const list = byId<HTMLUListElement>('editor-diagnostics');
  list.replaceChildren(
    ...problems.map((problem) => {
      const item = document.createElement('li');
      item.className = problem.severity;
      const where =
        problem.line === undefined ? '' : `line ${problem.line}, column ${problem.column ?? 1}: `;
      item.textContent = `${where}${problem.severity}: ${problem.message}`;
      return item;
    }),
  );
}

/**
 * Takes over the no-script form: the textarea gives way to the editor (mounted by the caller in
 * #code-editor), and Publish posts through publishFromBrowser, then opens the new work's page.
 */
function enhanceForm(options: {
  publishPath: string;
  remixOf: string | null;
  source(): string;
  draft: Draft;
}): void {
  const form = byId<HTMLFormElement>('editor-form');
  const status = byId<HTMLSpanElement>('publish-status');
  const button = byId<HTMLButtonElement>('publish');
  byId('source').hidden = true;
  byId('code-editor').hidden = false;
  byId('editor-hint').hidden = false;
  byId('preview-panel').hidden = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    status.className = '';
    status.textContent = 'Publishing…';
    const answer = await publishFromBrowser(options.publishPath, {
      source: options.source(),
      ...(options.remixOf ? { remixOf: options.remixOf } : {}),
    });
    if (answer.ok) {
      options.draft.clear();
      status.textContent = `Published as ${answer.code}.`;
      // The answer's url is the public one; its path opens the same page on this origin.
      location.assign(new URL(answer.url, location.href).pathname);
      return;
    }
    button.disabled = false;
    status.className = 'failure';
    status.textContent = answer.message;
  });
}

/** Runs `run` once the person has stopped typing for `ms`. */
export function debounce(ms: number, run: () => void): { schedule(): void; now(): void } {
  let timer = 0;
  return {
    schedule() {
      clearTimeout(timer);
      timer = window.setTimeout(run, ms);
    },
    now() {
      clearTimeout(timer);
      run();
    },
  };
}

/** A download of `blob` named `name`, started from the page. */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Starts the page's editor: the draft (or the page's source) in CodeMirror where the textarea
 * was, every change kept as the draft, and Publish through publishFromBrowser to `publishPath`.
 */
export function startEditor(options: {
  label: string;
  publishPath: string;
  language?: Language;
  lint?: (source: string) => Diagnostic[];
  onChange(): void;
  onRun(): void;
}): EditorView {
  const data = readEditorData();
  const draft = draftStore(data.kind, data.remixOf);
  const source = openingSource(data, draft, (text) =>
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
  );
  const view = mountCodeEditor({
    host: byId('code-editor'),
    doc: source,
    label: options.label,
    language: options.language,
    lint: options.lint,
    onChange(text) {
      draft.save(text);
      options.onChange();
    },
    onRun: options.onRun,
  });
  byId('source-label').addEventListener('click', () => view.focus());
  enhanceForm({
    publishPath: options.publishPath,
    remixOf: data.remixOf,
    source: () => view.state.doc.toString(),
    draft,
  });
  return view;
}

/**
 * The text the editor opens with: the person's draft when there is one (and a "Discard draft"
 * button that goes back to `data.source`), else the page's source.
 */
function openingSource(data: EditorData, draft: Draft, reset: (source: string) => void): string {
  const kept = draft.load();
  if (kept === null || kept === data.source) return data.source;
  const discard = byId<HTMLButtonElement>('discard-draft');
  discard.hidden = false;
  discard.addEventListener('click', () => {
    draft.clear();
    reset(data.source);
    draft.clear();
    discard.hidden = true;
  });
  return kept;
}
