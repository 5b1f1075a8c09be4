import { publishClock, publishKidlisp } from '../../operations/publish/index.js';

/** What `/new` edits: KidLisp (the default) or a clock melody (`/new?kind=clock`). */
export type EditorKind = 'kidlisp' | 'clock';

/** The publish operation of each kind: the same ones as POST /api/store-kidlisp and /api/store-clock. */
export const PUBLISH_OPERATIONS = { kidlisp: publishKidlisp, clock: publishClock } as const;

/** `kind` as the query or the form gives it; anything but `clock` is KidLisp. */
export const editorKindOf = (value: unknown): EditorKind =>
  value === 'clock' ? 'clock' : 'kidlisp';

/** The program a new KidLisp work starts from. */
export const STARTER_SOURCE: Record<EditorKind, string> = {
  kidlisp: '(wipe navy)\n(ink yellow)\n(circle 128 128 64)\n',
  clock: '{square} 5cdefg ceg\n',
};
