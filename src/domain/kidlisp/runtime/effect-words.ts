import { flipPixels } from './flip.js';
import type { Builtin, Interpreter } from './interpreter.js';
import { NoiseRandom, noisePixels } from './noise.js';
import { sharpenPixels } from './sharpen.js';
import { shearPixels } from './shear.js';
import { sortPixels } from './sort-pixels.js';
import { suckPixels } from './suck.js';
import { center, first, transform } from './transform-words.js';
import type { Value } from './value.js';

/** What the effects remember between frames, one record per program. */
interface EffectState {
  /** `suck` strength gathered and not applied yet (the reference applies it from 0.5 on). */
  suck: number;
  noise: NoiseRandom;
}

const states = new WeakMap<Interpreter, EffectState>();

function stateOf(rt: Interpreter): EffectState {
  let state = states.get(rt);
  if (state === undefined) {
    state = { suck: 0, noise: new NoiseRandom(rt.seed) };
    states.set(rt, state);
  }
  return state;
}

/** The reference's threshold: smaller strengths add up over frames until they reach it. */
const SUCK_STEP = 0.5;

/** `suck strength [cx cy]`: the strength adds up; at 0.5 or more (either sign) it is applied. */
function suck(rt: Interpreter, values: Value[]): void {
  const strength = first(rt, values, 1);
  if (strength === 0) return;
  const state = stateOf(rt);
  state.suck += strength;
  if (!Number.isFinite(state.suck)) state.suck = 0;
  if (Math.abs(state.suck) < SUCK_STEP) return;
  const amount = state.suck;
  state.suck = 0;
  const [cx, cy] = center(rt, values);
  rt.pixels((block) => suckPixels(block, amount, cx, cy));
}

/** `noise` takes its variant as a word or a string; anything else is the plain noise. */
const variantOf = (values: Value[]): string =>
  typeof values[0] === 'string' ? values[0] : 'plain';

/** Whole-screen effects beside the transforms (`transform-words.ts`), one module each. */
export const EFFECT_BUILTINS: readonly (readonly [string, Builtin])[] = [
  [
    'shear',
    transform((rt, values) => {
      const sx = values.length > 0 ? rt.toNumber(values[0]) : 0;
      const sy = values.length > 1 ? rt.toNumber(values[1]) : 0;
      if (sx !== 0 || sy !== 0) rt.pixels((block) => shearPixels(block, sx, sy));
    }),
  ],
  [
    'sharpen',
    transform((rt, values) => {
      const strength = first(rt, values, 1);
      if (strength > 0) rt.pixels((block) => sharpenPixels(block, strength));
    }),
  ],
  ['suck', transform(suck)],
  ['sort', transform((rt) => rt.pixels(sortPixels))],
  ['flip', transform((rt) => rt.pixels(flipPixels))],
  [
    'noise',
    transform((rt, values) => {
      const random = stateOf(rt).noise;
      rt.pixels((block) => noisePixels(block, variantOf(values), random));
    }),
  ],
];
