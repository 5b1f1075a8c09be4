const SEMITONES: Readonly<Record<string, number>> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };
const SHARP_NAMES = ['c', 'c#', 'd', 'd#', 'e', 'f', 'f#', 'g', 'g#', 'a', 'a#', 'b'] as const;
/** Spellings the reference player does not know; it plays them as C. */
const IMPOSSIBLE = new Set(['e#', 'b#', 'cb', 'fb']);

export function isNoteLetter(character: string | undefined): boolean {
  return character !== undefined && character.length === 1 && 'abcdefgABCDEFG'.includes(character);
}

export interface Pitch {
  /** Sharp spelling, e.g. 'c#'. */
  name: string;
  semitone: number;
  /** The accidental does not exist on that note (e#, b#, cb, fb). */
  impossible: boolean;
}

/** `letter` is a lower-case note letter, `accidental` is '', '#' or 'b'. */
export function pitchOf(letter: string, accidental: '' | '#' | 'b'): Pitch {
  const spelled = letter + accidental;
  if (IMPOSSIBLE.has(spelled)) return { name: 'c', semitone: 0, impossible: true };
  const natural = SEMITONES[letter] ?? 0;
  const semitone = (natural + (accidental === '#' ? 1 : accidental === 'b' ? -1 : 0) + 12) % 12;
  return { name: SHARP_NAMES[semitone] ?? 'c', semitone, impossible: false };
}

/** Equal temperament with A4 = 440 Hz. */
export function frequencyOf(semitone: number, octave: number): number {
  const midi = (octave + 1) * 12 + semitone;
  return 440 * 2 ** ((midi - 69) / 12);
}
