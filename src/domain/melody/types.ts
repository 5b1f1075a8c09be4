export interface MelodyNote {
  kind: 'note' | 'rest';
  /** Pitch class in sharps, e.g. 'c#' (a flat such as 'db' is given as 'c#'). Absent on rests and spoken words. */
  note?: string;
  octave?: number;
  /** Hz, A4 = 440 equal temperament, plus any `{Nhz}` shift. */
  frequency?: number;
  /** Duration units: 2 is the default note. */
  beats: number;
  /** Seconds at the default tempo, where 2 units last 1 s. */
  seconds: number;
  waveform: string;
  volume: number;
  swing?: 'early' | 'late';
  /** A spoken word (`"hi"`): a sounding step with no pitch. */
  text?: string;
  /** Struck rather than held (`^` toggles it). */
  struck?: boolean;
  /** How many `'` marks make it ring longer; the timeline is unchanged. */
  ring?: number;
}

export interface MelodyTrack {
  muted: boolean;
  events: MelodyNote[];
}

/** A part of the melody between `>` separators; its tracks play in parallel, `loops` times. */
export interface MelodySection {
  loops: number;
  tracks: MelodyTrack[];
}

export interface MelodyParse {
  valid: boolean;
  errors: string[];
  warnings: string[];
  /** Every track in text order. Without `>` these are simply the parallel tracks. */
  tracks: MelodyTrack[];
  /** The same tracks grouped into the sections that play one after another. */
  sections: MelodySection[];
}
