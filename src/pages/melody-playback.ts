import type { parseMelody } from '../domain/melody/index.js';

type ParsedMelody = ReturnType<typeof parseMelody>;
type ParsedEvent = ParsedMelody['tracks'][number]['events'][number];

/** One sound or silence as the player schedules it. */
interface PlaybackEvent {
  label: string;
  /** null for a rest. */
  frequency: number | null;
  seconds: number;
  waveform: string;
  volume: number;
}

/** Tracks in text order; sections play one after another, each `loops` times, its tracks in parallel. */
export interface Playback {
  code: string;
  tracks: { muted: boolean; events: PlaybackEvent[] }[];
  sections: { loops: number; tracks: number[] }[];
}

function playbackEvent(event: ParsedEvent): PlaybackEvent {
  const sounding =
    event.kind === 'note' && typeof event.frequency === 'number' && event.frequency > 0;
  return {
    label:
      event.kind === 'rest'
        ? '_'
        : event.text !== undefined
          ? `"${event.text}"`
          : `${event.note ?? '?'}${event.octave ?? ''}`,
    frequency: sounding ? (event.frequency as number) : null,
    seconds: event.seconds,
    waveform: event.waveform,
    volume: event.volume,
  };
}

/** The parse reduced to what the browser player (public/clock.js) needs; the melody editor makes it too. */
export function playbackOf(code: string, melody: ParsedMelody): Playback {
  const { tracks, sections } = melody;
  // Sections hold the tracks in text order, so track indices simply run on from section to section.
  let next = 0;
  const grouped = sections.map((section) => ({
    loops: section.loops,
    tracks: section.tracks.map(() => next++),
  }));
  return {
    code,
    tracks: tracks.map((track) => ({
      muted: track.muted,
      events: track.events.map(playbackEvent),
    })),
    sections:
      next === tracks.length ? grouped : [{ loops: 1, tracks: tracks.map((_, index) => index) }],
  };
}
