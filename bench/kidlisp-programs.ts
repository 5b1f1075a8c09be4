import { bundledExamples } from '../src/mcp/content/piece-examples.js';

/**
 * The bake + stamp family (30+ of the most-viewed works): $87a by @fifi, as published, copied
 * from whistlegraph/aesthetic-computer kidlisp/conformance/top100.json. Every frame: a fade,
 * three layers (bake), two stamped paintings, four blurs, two spins, two zooms, two scrolls.
 */
const BAKE_AND_STAMP = [
  'fade:lightsteelblue-pink-lightgreen:vertical',
  'spin -10 ',
  'scroll frame -5',
  'scroll width/5 frame',
  'blur 2',
  'bake',
  'stamp #dml 270 280 1.2 20',
  'blur (1s... 1 2)',
  'zoom (.25s... .8 ?)',
  'spin -10',
  'bake',
  'stamp #o2d 190 h/2 1.3 ',
  'blur 2 ',
  'zoom (.25s... .7 ?) ',
  'bake',
  'write (.25s... "dog" "god") 160 h/2 zebra',
  'fps 24',
  'stamp #dml 60 80 .8 170',
  'blur 2',
].join('\n');

/**
 * The programs the KidLisp frame benchmarks time: a program of the bake + stamp family, a corpus
 * that uses every word the runtime draws with `blur`, `spin`, `zoom` and `scroll` every frame,
 * the examples shown to assistants when nothing has been published
 * (src/mcp/content/piece-examples.ts), the program of issue 16 and a two-embed program.
 */
export const benchPrograms: { title: string; source: string }[] = [
  {
    title: 'Bake + stamp family ($87a): layers, four blurs, spin, zoom, scroll',
    source: BAKE_AND_STAMP,
  },
  {
    title: 'Baseline: $87a without blur, spin, zoom, scroll',
    source: BAKE_AND_STAMP.split('\n')
      .filter((line) => !/^(blur|spin|zoom|scroll) /.test(line))
      .join('\n'),
  },
  {
    title: 'Corpus: shapes, fill modes, text, then blur spin zoom scroll',
    source: [
      '(wipe 20 20 40)',
      '(ink rainbow) (line 0 frame%h w h-frame%h 3) (line w 0 0 h)',
      '(ink 250 190 40 160) (box 10 10 60 40) (box 80 10 60 40 outline) (box 150 10 60 40 inline:3)',
      '(ink 40 180 250) (circle 60 110 30) (circle 150 110 30 outline) (oval 210 110 30 18)',
      '(ink lime 140) (tri 20 240 70 160 120 240) (shape 140 170 250 180 230 250 150 240)',
      '(ink white) (point 5 5) (plot 250 250) (write "corpus" 8 140)',
      '(blur 1) (spin 1) (zoom 1.01) (scroll 1 1)',
    ].join('\n'),
  },
  {
    title: 'Corpus: fades, patterns, coat, contrast, invert, then blur spin zoom scroll',
    source: [
      'fade:navy-purple-black:vertical',
      '(ink fade:red-yellow:frame) (box 20 20 100 100)',
      '(ink zebra) (circle 180 70 40) (ink rainbow) (repeat 8 i (box (* i 30) 200 25 25))',
      '(coat black 24) (contrast 1.05) (2 (invert))',
      '(blur 1) (spin -2) (zoom 0.99) (scroll -1 2)',
    ].join('\n'),
  },
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
