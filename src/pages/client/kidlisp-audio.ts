/**
 * The player's sound: a Web Audio `SoundOutput` for the KidLisp runtime (runtime/sound.ts).
 * Browsers start sound only after a gesture, so one AudioContext for the page is made on the
 * visitor's first click or key anywhere on it; notes asked for before then are not played
 * (melodies go on from the clock, so the next note sounds). The microphone (`mic`, `amp`) is
 * asked for only when the program reads it, by a button the visitor presses; until then it
 * reads 0. For tests the canvas carries `data-kidlisp-audio` (`none`, `suspended`, `running`)
 * and `data-kidlisp-notes` (notes started).
 */
import type { SoundNote, SoundOutput } from '../../domain/kidlisp/runtime/index.js';

let shared: AudioContext | undefined;
const waiting = new Set<() => void>();

/** The page's AudioContext, made (or resumed) inside the visitor's first gesture. */
function startOnGesture(): void {
  try {
    shared ??= new AudioContext();
    if (shared.state === 'suspended') void shared.resume();
  } catch {
    return;
  }
  for (const started of waiting) started();
}

let listening = false;
function listenForGesture(): void {
  if (listening) return;
  listening = true;
  for (const type of ['pointerdown', 'keydown'] as const)
    document.addEventListener(type, startOnGesture, { capture: true });
}

let noiseBuffer: AudioBuffer | undefined;
function noise(context: AudioContext): AudioBuffer {
  if (noiseBuffer === undefined || noiseBuffer.sampleRate !== context.sampleRate) {
    noiseBuffer = context.createBuffer(1, context.sampleRate, context.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  return noiseBuffer;
}

/** A voice's sources into `out`: an oscillator recipe or noise, per the reference's voices. */
function sources(context: AudioContext, note: SoundNote, out: AudioNode, end: number): void {
  const now = context.currentTime;
  const tone = (type: OscillatorType, ratio: number, gain: number) => {
    const oscillator = context.createOscillator();
    oscillator.type = type;
    oscillator.frequency.value = note.frequency * ratio;
    const level = context.createGain();
    level.gain.value = gain;
    oscillator.connect(level).connect(out);
    oscillator.start(now);
    oscillator.stop(end);
  };
  const hiss = (filter: BiquadFilterType, hz: number, gain: number) => {
    const source = context.createBufferSource();
    source.buffer = noise(context);
    source.loop = true;
    const shape = context.createBiquadFilter();
    shape.type = filter;
    shape.frequency.value = hz;
    const level = context.createGain();
    level.gain.value = gain;
    source.connect(shape).connect(level).connect(out);
    source.start(now);
    source.stop(end);
  };
  switch (note.voice) {
    case 'hat':
      hiss('highpass', 7000, 1);
      return;
    case 'noise':
    case 'noise-white':
      hiss('allpass', 1000, 0.6);
      return;
    case 'bell':
      tone('sine', 1, 0.6);
      tone('sine', 2.76, 0.25);
      tone('sine', 5.4, 0.12);
      return;
    case 'pluck':
      tone('triangle', 1, 0.7);
      tone('sawtooth', 1, 0.15);
      return;
    case 'sub':
      tone('sine', 1, 1);
      return;
    case 'flute':
      tone('sine', 1, 0.8);
      hiss('bandpass', note.frequency * 2, 0.08);
      return;
    case 'square':
    case 'sawtooth':
    case 'triangle':
      tone(note.voice, 1, 0.5);
      return;
    default:
      tone('sine', 1, 1);
      return;
  }
}

interface Held {
  oscillator: OscillatorNode;
  gain: GainNode;
}

export interface PlayerAudio {
  output: SoundOutput;
  stop(): void;
}

/** Sound for one canvas's program. */
export function playerAudio(canvas: HTMLCanvasElement): PlayerAudio {
  listenForGesture();
  let master: GainNode | undefined;
  let analyser: AnalyserNode | undefined;
  let microphone: AnalyserNode | undefined;
  let micButton: HTMLButtonElement | undefined;
  let notes = 0;
  const held = new Map<number, Held>();
  const samples = new Float32Array(512);
  canvas.dataset.kidlispAudio = 'none';
  canvas.dataset.kidlispNotes = '0';

  const show = () => {
    canvas.dataset.kidlispAudio = shared?.state ?? 'none';
  };
  const started = () => {
    show();
    if (shared !== undefined) shared.onstatechange = () => show();
  };
  waiting.add(started);
  if (shared !== undefined) started();

  /** The output chain, once the page's AudioContext runs. */
  const ready = (): AudioContext | undefined => {
    if (shared?.state !== 'running') return undefined;
    if (master === undefined) {
      master = shared.createGain();
      master.gain.value = 0.5;
      analyser = shared.createAnalyser();
      master.connect(analyser).connect(shared.destination);
    }
    return shared;
  };

  const loudness = (node: AnalyserNode | undefined): number => {
    if (node === undefined) return 0;
    node.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.sqrt(sum / samples.length);
  };

  const askForMicrophone = () => {
    if (micButton !== undefined || microphone !== undefined) return;
    micButton = document.createElement('button');
    micButton.type = 'button';
    micButton.textContent = 'Let this work hear the microphone';
    micButton.addEventListener('click', async () => {
      try {
        const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
        startOnGesture();
        if (shared === undefined) return;
        microphone = shared.createAnalyser();
        shared.createMediaStreamSource(stream).connect(microphone);
        micButton?.remove();
      } catch {
        if (micButton !== undefined) micButton.textContent = 'The microphone was not allowed';
      }
    });
    canvas.after(micButton);
  };

  const output: SoundOutput = {
    play(note) {
      const context = ready();
      if (context === undefined || master === undefined) return;
      const now = context.currentTime;
      const end = now + note.seconds + 0.05;
      const envelope = context.createGain();
      const attack = note.attack ?? (note.voice === 'flute' ? 0.08 : 0.005);
      envelope.gain.setValueAtTime(0, now);
      envelope.gain.linearRampToValueAtTime(Math.max(0.0001, note.volume), now + attack);
      envelope.gain.exponentialRampToValueAtTime(0.0001, end);
      const panner = context.createStereoPanner();
      panner.pan.value = note.pan;
      envelope.connect(panner).connect(master);
      sources(context, note, envelope, end);
      notes++;
      canvas.dataset.kidlispNotes = String(notes);
    },
    hold(id, frequency, volume) {
      const context = ready();
      if (context === undefined || master === undefined) return;
      const tone = held.get(id);
      if (tone !== undefined) {
        tone.oscillator.frequency.setTargetAtTime(frequency, context.currentTime, 0.01);
        return;
      }
      const oscillator = context.createOscillator();
      oscillator.type = 'square';
      oscillator.frequency.value = frequency;
      const gain = context.createGain();
      gain.gain.setValueAtTime(0, context.currentTime);
      gain.gain.linearRampToValueAtTime(volume, context.currentTime + 0.01);
      oscillator.connect(gain).connect(master);
      oscillator.start();
      held.set(id, { oscillator, gain });
      notes++;
      canvas.dataset.kidlispNotes = String(notes);
    },
    release(id) {
      const tone = held.get(id);
      if (tone === undefined || shared === undefined) return;
      held.delete(id);
      tone.gain.gain.setTargetAtTime(0, shared.currentTime, 0.05);
      tone.oscillator.stop(shared.currentTime + 0.3);
    },
    level: () => loudness(analyser),
    microphone() {
      askForMicrophone();
      return loudness(microphone);
    },
    running: () => shared?.state === 'running',
  };

  return {
    output,
    stop() {
      waiting.delete(started);
      for (const id of [...held.keys()]) output.release(id);
      master?.disconnect();
      micButton?.remove();
    },
  };
}
