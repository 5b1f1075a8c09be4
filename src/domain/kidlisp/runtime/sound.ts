/**
 * The runtime's side of sound: what `melody`, `overtone` and the voices (sound-words.ts) hand
 * to a `SoundOutput`, and the melody clock. The runtime makes no sound itself; the browser
 * player gives it a Web Audio output (src/pages/client/kidlisp-audio.ts). Without an output
 * (thumbnails, the headless renderer, the CLI) every sound word runs silently.
 */
import { type MelodyParse, parseMelody } from '../../melody/index.js';

/** One note to sound now. */
export interface SoundNote {
  /** An oscillator (`sine`, `square`, `triangle`, `sawtooth`), `noise`, or a voice: `pluck`,
   * `bell`, `sub`, `flute`, `hat`. */
  voice: string;
  /** Hz; ignored by `hat` and `noise`. */
  frequency: number;
  /** How long it sounds, in seconds. */
  seconds: number;
  /** 0..1. */
  volume: number;
  /** -1 (left) .. 1 (right). */
  pan: number;
  /** Seconds to reach full volume; the voice's own when absent. */
  attack?: number;
}

export interface SoundOutput {
  play(note: SoundNote): void;
  /** `overtone`: a held square tone for one call site, started or retuned each frame. */
  hold(id: number, frequency: number, volume: number): void;
  release(id: number): void;
  /** 0..1, how loud the output is now (`amplitude`); 0 when unknown. */
  level(): number;
  /** 0..1, how loud the microphone is (`mic`, `amp`); 0 until the visitor allowed it. */
  microphone(): number;
  /** `speaker`: sound is running (the visitor has clicked or pressed a key). */
  running(): boolean;
}

/** Sounds started in one frame beyond this are not played (a `repeat` of bells). */
export const MAX_SOUNDS_PER_FRAME = 32;
/** Distinct melodies a program may register. */
export const MAX_MELODIES = 16;
/** Held tones are numbered across interpreters: an embed shares its parent's output. */
let nextHoldId = 1;
/** A melody note sounds for this share of its step, as the reference's does. */
const NOTE_LENGTH = 0.98;

interface TrackClock {
  starts: number[];
  loopMs: number;
  last: number;
}

interface Melody {
  parse: MelodyParse;
  /** Per section, per track. */
  tracks: TrackClock[][];
  sectionMs: number[];
  totalMs: number;
}

function trackClock(events: MelodyParse['tracks'][number]['events']): TrackClock {
  const starts: number[] = [];
  let at = 0;
  for (const event of events) {
    starts.push(at);
    at += Math.max(0, event.seconds) * 1000;
  }
  return { starts, loopMs: at, last: -1 };
}

function buildMelody(parse: MelodyParse): Melody {
  const tracks = parse.sections.map((section) => section.tracks.map((t) => trackClock(t.events)));
  const sectionMs = parse.sections.map((section, index) => {
    const longest = Math.max(0, ...(tracks[index] ?? []).map((clock) => clock.loopMs));
    return longest * Math.max(1, section.loops);
  });
  return { parse, tracks, sectionMs, totalMs: sectionMs.reduce((a, b) => a + b, 0) };
}

/** The index of the last start at or before `at` (starts ascend). */
function stepAt(starts: readonly number[], at: number): number {
  let index = 0;
  for (let i = 0; i < starts.length; i++) {
    if ((starts[i] ?? 0) <= at) index = i;
    else break;
  }
  return index;
}

/**
 * Sound for one interpreter. Melodies are def-like: a melody string registers once and then
 * plays every frame, its notes chosen from the clock (`epochMs` + the frame's ms), so every
 * visitor hears the same note at the same moment, as the reference's clock-locked melodies do.
 */
export class SoundState {
  private readonly melodies = new Map<string, Melody>();
  /** Melody texts that could not be read or were over the limit: told once, not read again. */
  private readonly refused = new Set<string>();
  private readonly holdIds = new WeakMap<object, number>();
  private heldThisFrame = new Set<number>();
  private heldLastFrame = new Set<number>();
  private soundsThisFrame = 0;

  constructor(
    private readonly output: SoundOutput | undefined,
    private readonly tell: (problem: string) => void,
  ) {}

  get silent(): boolean {
    return this.output === undefined;
  }

  /** Called before each frame's step: plays due melody notes and ends unheld tones. */
  startFrame(clockMs: number): void {
    this.soundsThisFrame = 0;
    const output = this.output;
    if (output === undefined) return;
    for (const id of this.heldLastFrame) if (!this.heldThisFrame.has(id)) output.release(id);
    this.heldLastFrame = this.heldThisFrame;
    this.heldThisFrame = new Set();
    for (const melody of this.melodies.values()) this.advance(melody, clockMs);
  }

  /** `(melody text)`: registers the melody the first time this text is seen. */
  melody(text: string, clockMs: number): void {
    if (this.melodies.has(text) || this.refused.has(text)) return;
    const parse = parseMelody(text);
    if (!parse.valid || this.melodies.size >= MAX_MELODIES) {
      if (this.refused.size < MAX_MELODIES) this.refused.add(text);
      this.tell(
        parse.valid
          ? `More than ${MAX_MELODIES} melodies; the others were not played`
          : `(melody "${text.slice(0, 40)}") could not be read: ${parse.errors[0] ?? ''}`,
      );
      return;
    }
    const melody = buildMelody(parse);
    this.melodies.set(text, melody);
    this.advance(melody, clockMs);
  }

  play(note: SoundNote): void {
    if (this.output === undefined) return;
    if (this.soundsThisFrame >= MAX_SOUNDS_PER_FRAME) {
      this.tell(
        `More than ${MAX_SOUNDS_PER_FRAME} sounds started in one frame; the rest were not played`,
      );
      return;
    }
    this.soundsThisFrame++;
    this.output.play(note);
  }

  /** `overtone`: the tone of one call site (`site`), held while the site runs every frame. */
  hold(site: object, frequency: number, volume: number): void {
    if (this.output === undefined) return;
    let id = this.holdIds.get(site);
    if (id === undefined) {
      id = nextHoldId++;
      this.holdIds.set(site, id);
    }
    this.heldThisFrame.add(id);
    this.output.hold(id, frequency, volume);
  }

  level(): number {
    return this.read(() => this.output?.level());
  }

  microphone(): number {
    return this.read(() => this.output?.microphone());
  }

  running(): boolean {
    return this.output?.running() === true;
  }

  private read(value: () => number | undefined): number {
    const n = value();
    return typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.min(1, n)) : 0;
  }

  private advance(melody: Melody, clockMs: number): void {
    if (melody.totalMs <= 0) return;
    let at = ((clockMs % melody.totalMs) + melody.totalMs) % melody.totalMs;
    let section = 0;
    while (section < melody.sectionMs.length - 1 && at >= (melody.sectionMs[section] ?? 0)) {
      at -= melody.sectionMs[section] ?? 0;
      section++;
    }
    const tracks = melody.parse.sections[section]?.tracks ?? [];
    tracks.forEach((track, index) => {
      const clock = melody.tracks[section]?.[index];
      if (clock === undefined || clock.loopMs <= 0 || track.muted) return;
      const step = stepAt(clock.starts, at % clock.loopMs);
      if (step === clock.last) return;
      clock.last = step;
      const event = track.events[step];
      if (event?.kind !== 'note' || event.frequency === undefined) return;
      this.play({
        voice: event.waveform,
        frequency: event.frequency,
        seconds: event.seconds * NOTE_LENGTH,
        volume: event.volume,
        pan: 0,
        attack: event.struck === true ? 0.005 : 0.01,
      });
    });
  }
}
