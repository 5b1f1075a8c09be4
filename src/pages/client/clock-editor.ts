/**
 * Browser entry of `/new?kind=clock`: a melody in the code editor; Play (public/clock.js, the
 * melody pages' own player) plays what is written now. Bundled by `npm run build:client` into
 * dist/public/clock-editor.js (docs/editor.md).
 */
import type { EditorView } from '@codemirror/view';
import { parseMelody } from '../../domain/melody/index.js';
import { playbackOf } from '../melody-playback.js';
import { byId, debounce, listProblems, startEditor } from './editor/editor-page.js';

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
view = startEditor({
  label: 'Melody',
  publishPath: '/api/store-clock',
  onChange: () => reparse.schedule(),
  onRun() {
    reparse.now();
    byId<HTMLButtonElement>('stop').click();
    byId<HTMLButtonElement>('play').click();
  },
});
parse();
