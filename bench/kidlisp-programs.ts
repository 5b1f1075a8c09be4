import { bundledExamples } from '../src/mcp/content/piece-examples.js';

/**
 * The programs the KidLisp frame benchmarks time: the examples shown to assistants when nothing
 * has been published (src/mcp/content/piece-examples.ts), the program of issue 16 and a
 * two-embed program.
 */
export const benchPrograms: { title: string; source: string }[] = [
  ...bundledExamples,
  {
    title: 'Issue 16: navy, yellow circle, boxes',
    source: '(wipe navy) (ink yellow) (circle w/2 h/2 64) (repeat 10 i (box (* i 20) 10 15 15))',
  },
  {
    title: 'Embedded twice, half transparent',
    source: '($aaa 0 0 w h 128)\n($bbb 0 0 w h 128)\n(contrast 1.5)',
  },
];

/** The sources of the `$code` embeds above. */
export const benchEmbeds: Record<string, string> = {
  aaa: '(wipe navy) (ink yellow) (circle w/2 h/2 64)',
  bbb: 'white\n(repeat height i (ink rainbow) (line 0 i width i))',
};
