import type { MelodyNote, MelodyTrack } from '../../../src/domain/melody/index.js';

/** A note as a player would read it out: 'c#4', a rest as '_', a spoken word as '"hi"'. */
export function spell(event: MelodyNote): string {
  if (event.text !== undefined) return `"${event.text}"`;
  if (event.kind === 'rest') return '_';
  return `${event.note ?? '?'}${event.octave ?? '?'}`;
}

export function spellTracks(tracks: readonly MelodyTrack[]): string[][] {
  return tracks.map((track) => track.events.map(spell));
}

export function beatsOf(tracks: readonly MelodyTrack[]): number[][] {
  return tracks.map((track) => track.events.map((event) => event.beats));
}
