import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wordStates } from '../../../../src/domain/kidlisp/runtime/index.js';

const DOC = new URL('../../../../docs/kidlisp-runtime.md', import.meta.url);
const HEADING = '## Every word of the reference and its state here';
const ROW = /^\| (.+?) \| `(.+?)` \| (.+?) \|/;

/** The rows of the doc's word table: family, word and state (the note column is free text). */
function documentedRows(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(HEADING);
  expect(start, `docs/kidlisp-runtime.md has the section "${HEADING}"`).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + HEADING.length);
  const section = text.slice(start, end === -1 ? undefined : end);
  return section
    .split('\n')
    .map((line) => ROW.exec(line))
    .filter((match) => match !== null)
    .map(([, group, word, state]) => `${group} | ${word} | ${state}`);
}

describe('docs/kidlisp-runtime.md: every word of the reference with its state here', () => {
  it('lists every built-in word, in the runtime word states order, with the state the runtime has', () => {
    const expected = wordStates().map(({ group, word, state }) => `${group} | ${word} | ${state}`);
    // On a failure, regenerate the table's rows from wordStates() and keep the notes.
    expect(documentedRows()).toEqual(expected);
  });

  it('names the pointer, the clock and sound as read, and other live values as reading 0', () => {
    const rows = documentedRows();
    for (const word of ['penx', 'peny', 'down', 'clock', 'dx', 'mic', 'melody', 'box', 'blur'])
      expect(
        rows.some((row) => row.endsWith(`| ${word} | runs`)),
        word,
      ).toBe(true);
    expect(rows.some((row) => row.endsWith('| beat | reads as 0'))).toBe(true);
    expect(rows.some((row) => row.endsWith('| cube | not drawn'))).toBe(true);
  });
});
