import type { RenderSpec } from '../../../../src/domain/kidlisp/render/frames.js';

/**
 * Input replays: programs that answer the pointer and keys, with the events a visitor would
 * make, drawn by the headless renderer (replays-golden.json holds their frames' hashes).
 */
export const inputReplays: (RenderSpec & { name: string })[] = [
  {
    name: 'drag-trail',
    source: 'black\n(ink white)\n(draw (line (- penx dx) (- peny dy) penx peny 3))',
    width: 64,
    height: 64,
    frames: 6,
    seed: 1,
    events: [
      { frame: 1, type: 'touch', x: 8, y: 8 },
      { frame: 2, type: 'draw', x: 30, y: 12 },
      { frame: 3, type: 'draw', x: 40, y: 40 },
      { frame: 4, type: 'draw', x: 12, y: 50, dx: -28, dy: 10 },
      { frame: 5, type: 'lift', x: 12, y: 50 },
    ],
  },
  {
    name: 'tap-and-lift',
    source:
      '(def shade 40)\n(tap (now shade 250))\n(lift (now shade 120))\n(wipe shade 0 80)\n(ink yellow)\n(box penx peny 6 6)\n(if down (ink white) (box 0 0 8 8))',
    width: 64,
    height: 64,
    frames: 5,
    seed: 1,
    events: [
      { frame: 1, type: 'touch', x: 20, y: 30 },
      { frame: 3, type: 'lift', x: 20, y: 30 },
    ],
  },
  {
    name: 'keys',
    source:
      '(def shade 40)\n(def moved 0)\n(tap (now shade 250))\n(lift (now shade 120))\n(draw (now moved (+ moved dy)))\n(wipe shade 0 80)\n(ink yellow)\n(box (* penx 8) (* peny 8) 8 8)\n(ink white)\n(box 0 56 (* moved 16) 8)',
    width: 64,
    height: 64,
    frames: 7,
    seed: 1,
    events: [
      { frame: 1, type: 'keydown', key: 'ArrowRight' },
      { frame: 1, type: 'keydown', key: 'ArrowRight' },
      { frame: 2, type: 'keydown', key: 'ArrowRight' },
      { frame: 3, type: 'keydown', key: 'Enter' },
      { frame: 4, type: 'keydown', key: 'ArrowDown' },
      { frame: 4, type: 'keydown', key: 'ArrowDown' },
      { frame: 5, type: 'keyup', key: 'Enter' },
      { frame: 6, type: 'keydown', key: 'ArrowDown' },
    ],
  },
];
