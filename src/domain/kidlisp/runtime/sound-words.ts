/**
 * The sound words, as the reference's interpreter says them (kidlisp.mjs, its "Voices" and
 * "Sound" entries): `(melody text...)`, `(overtone a b c)`, `(pluck note volume pan)`, `(bell
 * ...)`, `(sub ...)`, `(flute ...)`, `(hat volume pan)`, `(voice type note volume pan beats
 * attack)`, and the values `amplitude` and `speaker`. They sound through the runtime's
 * `SoundOutput` (sound.ts) and run silently without one. The top-level `noise` is the
 * reference's pixel word, not a sound, so it is not here.
 */
import { frequencyOf, pitchOf } from '../../melody/pitch.js';
import type { ListNode, Node } from './compile.js';
import type { Builtin, Interpreter, Scope } from './interpreter.js';
import type { SoundNote } from './sound.js';

/** A note as the reference's voices take it: letter, optional sharp or flat, octave. */
const NOTE_LITERAL = /^([a-g])(#|s|b|f)?([0-8])$/;
const OSCILLATORS = new Set(['sine', 'square', 'triangle', 'sawtooth', 'noise']);
/** A `beat` of `voice` lasts half a second (120 per minute), as a melody's plain note is 2. */
const SECONDS_PER_BEAT = 0.5;

/** Hz of a note literal (`c4`, `f#3`, `bb5`, `as2`), or undefined. */
export function noteFrequency(text: string): number | undefined {
  const match = NOTE_LITERAL.exec(text.trim().toLowerCase());
  if (match === null) return undefined;
  const [, letter = 'c', mark = '', octave = '4'] = match;
  const accidental = mark === '#' || mark === 's' ? '#' : mark === '' ? '' : 'b';
  return frequencyOf(pitchOf(letter, accidental).semitone, Number(octave));
}

/**
 * A voice's note arrives unevaluated, as in the reference: `c4` is also a color word, and in a
 * voice it is a note. A number is Hz; any other form is evaluated and read the same way.
 */
function noteArg(rt: Interpreter, node: Node | undefined, scope: Scope, fallback: string): number {
  const fallbackHz = noteFrequency(fallback) ?? 440;
  if (node === undefined) return fallbackHz;
  const written = node.t === 'word' ? node.name : node.t === 'str' ? node.value : undefined;
  const value = written ?? rt.evalNode(node, scope);
  if (typeof value === 'number') return value > 0 && value < 30_000 ? value : fallbackHz;
  return typeof value === 'string' ? (noteFrequency(value) ?? fallbackHz) : fallbackHz;
}

function numberArg(
  rt: Interpreter,
  node: Node | undefined,
  scope: Scope,
  fallback: number,
): number {
  if (node === undefined) return fallback;
  const value = rt.evalNode(node, scope);
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

const clamp = (n: number, low: number, high: number) => Math.max(low, Math.min(high, n));

function play(rt: Interpreter, note: SoundNote): undefined {
  rt.sound.play({
    ...note,
    volume: clamp(note.volume, 0, 1),
    pan: clamp(note.pan, -1, 1),
    seconds: clamp(note.seconds, 0.01, 10),
  });
  return undefined;
}

/** `(pluck c4 0.5 0)`-shaped voices: note, volume, pan, with the reference's defaults. */
const pitchedVoice =
  (voice: string, note: string, volume: number, seconds: number): Builtin =>
  (rt, list, scope) =>
    play(rt, {
      voice,
      frequency: noteArg(rt, list.items[1], scope, note),
      volume: numberArg(rt, list.items[2], scope, volume),
      pan: numberArg(rt, list.items[3], scope, 0),
      seconds,
    });

const hat: Builtin = (rt, list, scope) =>
  play(rt, {
    voice: 'hat',
    frequency: 0,
    volume: numberArg(rt, list.items[1], scope, 0.14),
    pan: numberArg(rt, list.items[2], scope, 0),
    seconds: 0.08,
  });

const voice: Builtin = (rt, list, scope) => {
  const typeNode = list.items[1];
  const type = typeNode?.t === 'word' ? typeNode.name : String(rt.evalNode(typeNode, scope) ?? '');
  return play(rt, {
    voice: OSCILLATORS.has(type) ? type : 'sine',
    frequency: noteArg(rt, list.items[2], scope, 'c4'),
    volume: numberArg(rt, list.items[3], scope, 0.4),
    pan: numberArg(rt, list.items[4], scope, 0),
    seconds: numberArg(rt, list.items[5], scope, 0.6) * SECONDS_PER_BEAT,
    attack: clamp(numberArg(rt, list.items[6], scope, 0.01), 0, 5),
  });
};

/**
 * `(melody text...)`: every argument that is not a number is a track; numbers (an old BPM) are
 * ignored. A word is its own text unless the program `def`ined it as text (`f` stays the note f,
 * not the frame number).
 */
const melody: Builtin = (rt, list, scope) => {
  const parts: string[] = [];
  for (const node of list.items.slice(1)) {
    const value = rt.evalNode(node, scope);
    const written = node.t === 'word' && typeof value !== 'string' ? node.name : value;
    if (typeof written === 'string' && !/^-?\d*\.?\d+$/.test(written)) parts.push(written);
  }
  const text = parts.join(' ').trim();
  if (text !== '') rt.sound.melody(text, rt.clockMs());
  return text === '' ? undefined : text;
};

/** `(overtone a b c)`: a held square tone at a*b/c Hz (440 without arguments), volume 0.15. */
const overtone: Builtin = (rt, list: ListNode, scope) => {
  const [a, b, c] = rt.evalArgs(list, scope).map((value) => rt.toNumber(value));
  const hz = a === undefined ? 440 : (a * (b ?? 0)) / (c ?? 1);
  rt.sound.hold(list, Number.isFinite(hz) && hz > 0 && hz < 30_000 ? hz : 440, 0.15);
  return undefined;
};

export const SOUND_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['melody', melody],
  ['overtone', overtone],
  ['pluck', pitchedVoice('pluck', 'c4', 0.5, 1.2)],
  ['bell', pitchedVoice('bell', 'e5', 0.4, 2.5)],
  ['sub', pitchedVoice('sub', 'a1', 0.5, 0.9)],
  ['flute', pitchedVoice('flute', 'g4', 0.3, 0.9)],
  ['hat', hat],
  ['voice', voice],
  ['amplitude', (rt) => rt.sound.level()],
  ['speaker', (rt) => rt.sound.running()],
];
