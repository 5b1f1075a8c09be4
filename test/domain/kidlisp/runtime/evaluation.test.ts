import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { BLACK, RED } from './pixel-surface.js';

const BLUE = [0, 0, 255, 255];

/** Draws one red pixel at x = `expression` on row 0 and reads back where it landed. */
function xOf(expression: string, frames = 1): number | undefined {
  const { surface } = run(`(ink red) (box ${expression} 0 1 1)`, { frames, size: 64 });
  for (let x = 0; x < 64; x++) if (surface.pixel(x, 0)[0] === 255) return x;
  return undefined;
}

describe('math and values', () => {
  it.each([
    ['(+ 1 2 3)', 6],
    ['(- 10 4)', 6],
    ['(+ 20 (- 5))', 15],
    ['(* 2 3 4)', 24],
    ['(/ 40 2 0 4)', 5],
    ['(% 17 5)', 2],
    ['(mod 17 5)', 2],
    ['(min 9 4 7)', 4],
    ['(max 9 4 7)', 9],
    ['(floor 7.9)', 7],
    ['(ceil 7.1)', 8],
    ['(round 7.5)', 8],
    ['(round (* 10 (cos 0)))', 10],
    ['(+ 5 (sin 0))', 5],
    ['(mul 3 3)', 9],
    ['w/2', 32],
    ['h/4+1', 17],
    ['w/4*2', 32],
    ['(+ w -w 3)', 3],
    ['width/8', 8],
    ['(- height 1)', 63],
    ['(min w h)/2', 32],
    ['(+ 10 10)*2', 40],
    ['(+ 10 11)%4', 1],
  ])('%s is %d', (expression, expected) => {
    expect(xOf(expression)).toBe(expected);
  });

  it('frame counts frames and -frame negates it', () => {
    expect(xOf('frame', 5)).toBe(0);
    expect(run('(ink red) (box frame 0 1 1)', { frames: 5 }).surface.pixel(4, 0)).toEqual(RED);
    expect(xOf('(+ 10 -frame)', 1)).toBe(10);
    expect(run('(ink red) (box frame*3 0 1 1)', { frames: 3 }).surface.pixel(6, 0)).toEqual(RED);
  });

  it('random and wiggle stay in range and repeat for one seed', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const x = run('(ink red) (box (random 10 20) 0 1 1)', { seed }).surface;
      const lit = [...Array(64).keys()].filter((i) => x.pixel(i, 0)[0] === 255);
      expect(lit).toHaveLength(1);
      expect(lit[0]).toBeGreaterThanOrEqual(10);
      expect(lit[0]).toBeLessThanOrEqual(20);
    }
    const a = run('(ink red) (box (+ 32 (wiggle 20)) 0 1 1)', { seed: 5 }).surface.snapshot();
    expect(run('(ink red) (box (+ 32 (wiggle 20)) 0 1 1)', { seed: 5 }).surface.snapshot()).toEqual(
      a,
    );
  });
});

describe('definitions and control', () => {
  it('def defines a value once; now changes it from frame to frame', () => {
    expect(xOf('(+ 0 x)')).toBe(0);
    expect(run('(def x 10) (ink red) (box x 0 1 1)').surface.pixel(10, 0)).toEqual(RED);
    const counter = run('(def x 0) (now x (+ x 1)) (ink red) (box x 0 1 1)', { frames: 3 }).surface;
    expect([1, 2, 3].map((x) => counter.pixel(x, 0))).toEqual([RED, RED, RED]);
    expect(counter.pixel(0, 0)).toEqual(BLACK);
  });

  it('skips a def whose name has a dash, and says so', () => {
    const { surface, runtime } = run('(def my-var 10) (ink red) (box my_var 0 1 1)');
    expect(surface.pixel(10, 0)).toEqual(BLACK);
    expect(runtime.report().problems[0]).toContain('(def ...) at line 1, column 1');
  });

  it('die forgets a definition', () => {
    expect(run('(def x 10) (die x) (ink red) (box (+ x 0) 0 1 1)').surface.pixel(0, 0)).toEqual(
      RED,
    );
  });

  it('later defines a function with parameters, usable before its definition', () => {
    const { surface } = run(
      'black\n(cross 16 32)\n(later cross x y (ink red) (line x-10 y-10 x+10 y+10))',
    );
    expect(surface.pixel(6, 22)).toEqual(RED);
    expect(surface.pixel(26, 42)).toEqual(RED);
    expect(surface.pixel(16, 32)).toEqual(RED);
    expect(surface.pixel(30, 30)).toEqual(BLACK);
  });

  it('if runs every form after the condition when it is true (there is no else)', () => {
    const yes = run('(ink red) (if (> 2 1) (box 0 0 1 1) (box 2 0 1 1))').surface;
    expect(yes.pixel(0, 0)).toEqual(RED);
    expect(yes.pixel(2, 0)).toEqual(RED);
    const no = run('(ink red) (if 0 (box 0 0 1 1))').surface;
    expect(no.count(RED)).toBe(0);
  });

  it('not runs its body when the condition is false', () => {
    expect(run('(ink red) (not 0 (box 0 0 1 1))').surface.pixel(0, 0)).toEqual(RED);
    expect(run('(ink red) (not 1 (box 0 0 1 1))').surface.count(RED)).toBe(0);
  });

  it('> < = take a body that runs when they hold', () => {
    const { surface } = run(
      '(ink red) (< 1 2 (box 0 0 1 1)) (> 1 2 (box 1 0 1 1)) (= 3 3 (box 2 0 1 1))',
    );
    expect([0, 1, 2].map((x) => surface.pixel(x, 0))).toEqual([RED, BLACK, RED]);
  });

  it('repeat runs its body n times with an optional loop variable', () => {
    const counted = run('(ink red) (repeat 10 i (box (* i 2) 0 1 1))').surface;
    expect(counted.count(RED)).toBe(10);
    expect(counted.pixel(18, 0)).toEqual(RED);
    const bare = run('(ink red) (repeat 30 point)', { seed: 4 }).surface;
    expect(bare.count(RED)).toBeGreaterThan(20);
    expect(run('(ink red) (rep 3 i (box i 0 1 1))').surface.count(RED)).toBe(3);
    expect(run('(ink red) (bunch 3 i (box i 0 1 1))').surface.count(RED)).toBe(3);
  });

  it('skips a repeat over 10,000 and says so', () => {
    const { surface, runtime } = run('(ink red) (repeat 20000 (box 0 0 1 1))');
    expect(surface.count(RED)).toBe(0);
    expect(runtime.report().problems[0]).toContain('over the limit of 10,000');
  });

  it('? and choose pick one option each time, following the seed', () => {
    const colors = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      colors.add(String(run('(wipe (? red blue))', { seed }).surface.pixel(0, 0)));
      colors.add(String(run('(wipe (choose red blue))', { seed }).surface.pixel(0, 0)));
    }
    expect(colors).toEqual(new Set([String(RED), String(BLUE)]));
  });

  it('... steps through its values on every evaluation', () => {
    const seen = [0, 1, 2].map((frames) =>
      run('(wipe (... red blue))', { frames: frames + 1 }).surface.pixel(0, 0),
    );
    expect(seen).toEqual([RED, BLUE, RED]);
  });

  it('an integer head runs its body every (n+1)th frame', () => {
    const { surface } = run('(ink red) (2 (box frame 0 1 1))', { frames: 7 });
    expect([0, 1, 2, 3, 6].map((x) => surface.pixel(x, 0))).toEqual([RED, BLACK, BLACK, RED, RED]);
  });

  it('once runs its body on the first frame only; no disables its body', () => {
    expect(run('(ink red) (once (box frame 0 1 1))', { frames: 3 }).surface.count(RED)).toBe(1);
    expect(run('(no (wipe red))').surface.count(RED)).toBe(0);
  });

  it('a list of lists runs each in turn', () => {
    expect(run('(ink red) ((box 0 0 1 1) (box 1 0 1 1))').surface.count(RED)).toBe(2);
  });

  it('comma segments and bare lines are forms, as the reader lays them out', () => {
    expect(run('navy, ink red, box 0 0 5 5').surface.pixel(2, 2)).toEqual(RED);
    expect(run('navy\nink red\nbox 0 0 5 5').surface.pixel(10, 10)).toEqual([0, 0, 128, 255]);
  });
});

describe('timing', () => {
  it('a timing program changes its pixels between two frames', () => {
    const source = '(1s (wipe (... red blue)))';
    const { surface, runtime } = run(source, { frames: 1 });
    const before = surface.snapshot();
    runtime.frame({ frame: 60, ms: 1000 });
    expect(surface.snapshot()).not.toEqual(before);
    expect(surface.pixel(0, 0)).toEqual(BLUE);
  });

  it('(Ns ...) repeats every N seconds; only the first top-level timer also fires at once', () => {
    const { surface, runtime } = run('(ink red)\n(1s (box (/ frame 60) 0 1 1))', { frames: 1 });
    expect(surface.count(RED)).toBe(0);
    runtime.frame({ frame: 30, ms: 500 });
    expect(surface.count(RED)).toBe(0);
    runtime.frame({ frame: 60, ms: 1000 });
    runtime.frame({ frame: 61, ms: 1016 });
    expect(surface.count(RED)).toBe(1);
    runtime.frame({ frame: 120, ms: 2000 });
    expect(surface.count(RED)).toBe(2);
    expect(surface.pixel(2, 0)).toEqual(RED);
  });

  it('0s runs every frame; 0.5s! repeats like 0.5s', () => {
    expect(run('(ink red) (0s (box frame 0 1 1))', { frames: 3 }).surface.count(RED)).toBe(3);
    const bang = run('(ink red) (0.5s! (box frame 0 1 1))', { frames: 61 }).surface;
    expect(bang.count(RED)).toBe(2);
  });

  it('(Ns... a b) picks by time slot, as a value or as forms', () => {
    const at = (ms: number) => {
      const { surface, runtime } = run('(wipe (2s... red blue))', { frames: 0 });
      runtime.frame({ frame: 0, ms });
      return surface.pixel(0, 0);
    };
    expect([at(0), at(1999), at(2000), at(4000)]).toEqual([RED, RED, BLUE, RED]);
    const forms = run('(ink red) (1s... (box 0 0 1 1) (box 1 0 1 1))', { frames: 0 });
    forms.runtime.frame({ frame: 0, ms: 1500 });
    expect(forms.surface.pixel(1, 0)).toEqual(RED);
    expect(forms.surface.pixel(0, 0)).toEqual(BLACK);
  });

  it('a bare timing word at the top level takes the following forms as its body', () => {
    const { surface, runtime } = run('1s\n(wipe red)\n(ink blue)\n(box 0 0 5 5)', { frames: 1 });
    expect(surface.pixel(2, 2)).toEqual(BLUE);
    expect(surface.pixel(10, 10)).toEqual(RED);
    const later = run('(wipe black)\n(ink blue)\n1s\n(box 0 0 5 5)', { frames: 1 });
    expect(later.surface.pixel(2, 2)).toEqual(BLACK);
    later.runtime.frame({ frame: 60, ms: 1000 });
    expect(later.surface.pixel(2, 2)).toEqual(BLUE);
    expect(runtime.report()).toEqual({ unsupported: [], unknown: [], problems: [] });
  });

  it('delay and hop are timers with the period as an argument', () => {
    const hop = run('(wipe (hop 1 red blue))', { frames: 0 });
    hop.runtime.frame({ frame: 0, ms: 1000 });
    expect(hop.surface.pixel(0, 0)).toEqual(BLUE);
    const delay = run('(wipe black) (ink red) (delay 1 (box 0 0 1 1))', { frames: 0 });
    delay.runtime.frame({ frame: 0, ms: 0 });
    expect(delay.surface.count(RED)).toBe(0);
    delay.runtime.frame({ frame: 60, ms: 1000 });
    expect(delay.surface.count(RED)).toBe(1);
  });
});
