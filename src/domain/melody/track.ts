import { frequencyOf, isNoteLetter, pitchOf } from './pitch.js';
import type { MelodyReport } from './report.js';
import type { Lookups, WordRange } from './scanner.js';
import { DEFAULT_BEATS, readBraceSetting } from './settings.js';
import type { MelodyNote, MelodyTrack } from './types.js';

/** Sound settings a track starts with; a word made only of `{...}` passes its settings on. */
export interface Voice {
  waveform: string;
  volume: number;
  hertzShift: number;
  beats: number;
}

export const DEFAULT_VOICE: Voice = {
  waveform: 'sine',
  volume: 1,
  hertzShift: 0,
  beats: DEFAULT_BEATS,
};

export interface TrackResult {
  track: MelodyTrack;
  /** The word held nothing but `{...}` settings. */
  settingsOnly: boolean;
  voice: Voice;
}

const DEFAULT_OCTAVE = 4;
const SEPARATORS = new Set(['*', '|', '~']);
const MISPLACED_HINTS: Readonly<Record<string, string>> = {
  '.': 'duration marks go right after a note or rest',
  ',': 'duration marks go right after a note or rest',
  "'": 'ring marks go right after a note',
  '+': 'octave shifts go right before a note',
  '#': 'a sharp goes right after a note',
  s: 'a sharp goes right after a note',
  '}': "no '{' opens it",
  x: 'x mutes a track only as its first character',
};

export function parseTrack(
  text: string,
  word: WordRange,
  startVoice: Voice,
  lookups: Lookups,
  report: MelodyReport,
): TrackResult {
  return new TrackParser(text, word, startVoice, lookups, report).parse();
}

class TrackParser {
  private i: number;
  private readonly events: MelodyNote[] = [];
  private readonly voice: Voice;
  private muted = false;
  private settingsOnly = true;
  private baseOctave = DEFAULT_OCTAVE;
  private relativeOctave = 0;
  private struck = false;
  private swing: 'early' | 'late' | undefined;
  /** Where an octave digit stands that no later note has used yet. */
  private unusedOctaveAt: number | undefined;

  constructor(
    private readonly text: string,
    private readonly word: WordRange,
    startVoice: Voice,
    private readonly lookups: Lookups,
    private readonly report: MelodyReport,
  ) {
    this.i = word.start;
    this.voice = { ...startVoice };
  }

  parse(): TrackResult {
    if (this.text[this.i] === 'x') {
      this.muted = true;
      this.settingsOnly = false;
      this.i++;
    }
    while (this.i < this.word.end) this.step();
    this.reportUnusedOctave();
    return {
      track: { muted: this.muted, events: this.events },
      settingsOnly: this.settingsOnly,
      voice: this.voice,
    };
  }

  private step(): void {
    const character = this.text[this.i] ?? '';
    if (character === '{') {
      this.readBraces();
      return;
    }
    this.settingsOnly = false;
    if (isNoteLetter(character)) this.readNote(0);
    else if (character >= '0' && character <= '9') this.readOctave(character);
    else if (character === '+' || character === '-') this.readShiftOrDashRest(character);
    else if (character === '_') this.readRest();
    else if (character === '<' || character === '[') this.readSwing('early');
    else if (character === '>' || character === ']') this.readSwing('late');
    else if (character === '"') this.readSpeech();
    else if (character === '^') this.toggleStruck();
    else if (SEPARATORS.has(character)) this.i++;
    else this.ignoreCharacter();
  }

  private readNote(octaveShift: number): void {
    const at = this.i;
    const letter = (this.text[this.i] ?? 'c').toLowerCase();
    this.i++;
    const accidental = this.readAccidental();
    const pitch = pitchOf(letter, accidental);
    if (pitch.impossible) {
      const spelled = this.text.slice(at, this.i);
      this.report.warning(
        at,
        `'${spelled}' at ${this.report.where(at)} is not a real note; the player plays it as C`,
      );
    }
    this.relativeOctave += octaveShift;
    const octave = this.baseOctave + this.relativeOctave;
    const { beats, ring } = this.readMarks(true);
    const note: MelodyNote = {
      kind: 'note',
      note: pitch.name,
      octave,
      frequency: Math.max(0, frequencyOf(pitch.semitone, octave) + this.voice.hertzShift),
      ...this.timing(beats),
      waveform: this.voice.waveform,
      volume: this.voice.volume,
    };
    if (this.swing !== undefined) note.swing = this.swing;
    if (this.struck) note.struck = true;
    if (ring > 0) note.ring = ring;
    this.swing = undefined;
    this.unusedOctaveAt = undefined;
    this.events.push(note);
  }

  /** `#` or `s` is a sharp; `b` is a flat unless a note letter or the end of the track follows it. */
  private readAccidental(): '' | '#' | 'b' {
    const next = this.text[this.i];
    if (next === '#' || next === 's') {
      this.i++;
      return '#';
    }
    if (next === 'b' && this.i + 1 < this.word.end && !isNoteLetter(this.text[this.i + 1])) {
      this.i++;
      return 'b';
    }
    return '';
  }

  /** Duration marks after a note stay in force for later unmarked notes; a rest's marks are its own. */
  private readMarks(afterNote: boolean): { beats: number; ring: number } {
    let halvings = 0;
    let doublings = 0;
    let ring = 0;
    for (let mark = this.text[this.i]; this.i < this.word.end; mark = this.text[++this.i]) {
      if (mark === '.') halvings++;
      else if (mark === ',') doublings++;
      else if (mark === "'" && afterNote) ring++;
      else break;
    }
    if (halvings === 0 && doublings === 0) return { beats: this.voice.beats, ring };
    const beats = DEFAULT_BEATS * 2 ** (doublings - halvings);
    if (afterNote) this.voice.beats = beats;
    return { beats, ring };
  }

  private timing(beats: number): { beats: number; seconds: number } {
    return { beats, seconds: beats / 2 };
  }

  private readOctave(digit: string): void {
    this.baseOctave = Number(digit);
    this.relativeOctave = 0;
    this.unusedOctaveAt ??= this.i;
    this.i++;
  }

  /** `+c`, `--d` shift the octave (cumulatively); a run of `-` before anything else is a rest. */
  private readShiftOrDashRest(sign: '+' | '-'): void {
    const at = this.i;
    while (this.text[this.i] === sign && this.i < this.word.end) this.i++;
    const count = this.i - at;
    if (this.i < this.word.end && isNoteLetter(this.text[this.i])) {
      this.readNote(sign === '+' ? count : -count);
    } else if (sign === '-') {
      this.pushRest(DEFAULT_BEATS * 2 ** count);
    } else {
      this.report.ignoredCharacter('+', at, MISPLACED_HINTS['+']);
    }
  }

  private readRest(): void {
    this.i++;
    this.pushRest(this.readMarks(false).beats);
  }

  private pushRest(beats: number): void {
    this.events.push({
      kind: 'rest',
      ...this.timing(beats),
      waveform: this.voice.waveform,
      volume: this.voice.volume,
    });
  }

  private readSwing(direction: 'early' | 'late'): void {
    this.swing = direction;
    this.i++;
  }

  private readSpeech(): void {
    const at = this.i;
    const close = this.lookups.nextQuote[at + 1] ?? -1;
    if (close < 0 || close >= this.word.end) {
      this.i++; // the scanner already reported the unclosed quote
      return;
    }
    const spoken = this.text.slice(at + 1, close);
    this.i = close + 1;
    if (spoken.trim() === '') return;
    const { beats } = this.readMarks(true);
    this.events.push({
      kind: 'note',
      text: spoken,
      ...this.timing(beats),
      waveform: this.voice.waveform,
      volume: this.voice.volume,
    });
  }

  private toggleStruck(): void {
    this.struck = !this.struck;
    this.i++;
  }

  private readBraces(): void {
    const at = this.i;
    const close = this.lookups.nextBraceClose[at + 1] ?? -1;
    if (close < 0 || close >= this.word.end) {
      this.settingsOnly = false;
      this.i++; // the scanner already reported the unclosed brace
      return;
    }
    this.i = close + 1;
    const group = this.text.slice(at, close + 1);
    const setting = readBraceSetting(group.slice(1, -1));
    switch (setting.kind) {
      case 'waveform':
        this.voice.waveform = setting.waveform;
        if (setting.volume !== undefined) this.setVolume(setting.volume, group, at);
        break;
      case 'volume':
        this.setVolume(setting.volume, group, at);
        break;
      case 'pitch-shift':
        this.voice.hertzShift = setting.hertz;
        break;
      case 'duration':
        this.voice.beats = setting.beats;
        break;
      case 'unknown':
        this.report.warning(
          at,
          `Unknown setting '${group}' at ${this.report.where(at)} is ignored`,
        );
        break;
    }
  }

  private setVolume(volume: number, group: string, at: number): void {
    const clamped = Math.min(1, Math.max(0, volume));
    if (clamped !== volume) {
      this.report.warning(
        at,
        `Volume ${volume} in '${group}' at ${this.report.where(at)} is outside 0..1; it plays as ${clamped}`,
      );
    }
    this.voice.volume = clamped;
  }

  private ignoreCharacter(): void {
    const at = this.i;
    const codePoint = this.text.codePointAt(at) ?? 0;
    const character = String.fromCodePoint(codePoint);
    this.i += character.length;
    this.report.ignoredCharacter(character, at, MISPLACED_HINTS[character]);
  }

  private reportUnusedOctave(): void {
    const at = this.unusedOctaveAt;
    if (at === undefined) return;
    const digit = this.text[at] ?? '';
    const hasNotes = this.events.some((event) => event.note !== undefined);
    const why = hasNotes
      ? 'comes after the last note of its track'
      : 'has no note after it in its track';
    this.report.warning(
      at,
      `Octave '${digit}' at ${this.report.where(at)} ${why} and does nothing: octaves go before notes (${digit}c, not c${digit})`,
    );
  }
}
