import { type WordState, wordStates } from '../../domain/kidlisp/runtime/index.js';

const MEANING: Record<WordState, string> = {
  runs: 'drawn or evaluated by this service',
  'reads as 0':
    'a value from outside the program (beat detection, parameters) that reads as 0 here',
  'not drawn': "part of the language, not drawn here yet (render_kidlisp's report names it)",
};

/** The section of `service://kidlisp-reference` that lists every word with its state in the runtime. */
export function wordStatesMarkdown(): string {
  const byGroup = new Map<string, string[]>();
  for (const { group, word, state } of wordStates()) {
    byGroup.set(group, [...(byGroup.get(group) ?? []), `\`${word}\` ${state}`]);
  }
  const legend = Object.entries(MEANING).map(([state, meaning]) => `- **${state}**: ${meaning}.`);
  const rows = [...byGroup].map(([group, words]) => `| ${group} | ${words.join(', ')} |`);
  return [
    '## Every word and its state in this runtime',
    '',
    ...legend,
    '',
    '| group | words |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}
