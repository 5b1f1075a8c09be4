/**
 * Browser entry of `/new?kind=clock`: a melody in the code editor; Play (public/clock.js, the
 * melody pages' own player) plays what is written now. Bundled by `npm run build:client` into
 * dist/public/clock-editor.js (docs/editor.md).
 */
import type { EditorView } from '@codemirror/view';
import { parseMelody } from '../../domain/melody/index.js';
import { playbackOf } from '../melody-playback.js';
import { mountCodeEditor } from './editor/code-editor.js';
import { draftStore } from './editor/draft.js';
import {
  byId,
  debounce,
  enhanceForm,
  listProblems,
  openingSource,
  readEditorData,
} from './editor/editor-page.js';

const data = readEditorData();
const draft = draftStore('clock', data.remixOf);
let view: EditorView;

/** Parses the melody into #melody-data, which the player reads at each Play, and lists its problems. */
function parse(): void {
  const melody = parseMelody(view.state.doc.toString());
  byId('melody-data').textContent = JSON.stringify(playbackOf('draft', melody));
  listProblems([
    ...melody.errors.map((message) => ({ severity: 'error' as const, message: String(message) })),
    ...melody.warnings.map((message) => ({
      severity: 'warning' as const,
      message: String(message),
    })),
  ]);
}

const reparse = debounce(150, parse);
const source = openingSource(data, draft, (text) =>
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
);
view = mountCodeEditor({
  host: byId('code-editor'),
  doc: source,
  label: 'Melody',
  onChange(text) {
    draft.save(text);
    reparse.schedule();
  },
  onRun() {
    reparse.now();
    byId<HTMLButtonElement>('stop').click();
    byId<HTMLButtonElement>('play').click();
  },
});
byId('source-label').addEventListener('click', () => view.focus());
enhanceForm({
  publishPath: '/api/store-clock',
  remixOf: data.remixOf,
  source: () => view.state.doc.toString(),
  draft,
});
parse();
