/** What a `{...}` group sets. Settings are sticky: they hold for the rest of the track. */
export type BraceSetting =
  | { kind: 'waveform'; waveform: string; volume?: number }
  | { kind: 'volume'; volume: number }
  | { kind: 'pitch-shift'; hertz: number; cumulative: boolean }
  | { kind: 'duration'; beats: number }
  | { kind: 'unknown' };

const WAVEFORMS = new Set([
  'sine',
  'square',
  'sawtooth',
  'triangle',
  'noise-white',
  'sample',
  'custom',
  'bubble',
  'stample',
]);
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const PITCH_SHIFT = /^([+-]?(?:\d+\.?\d*|\.\d+))hz(&?)$/;
const DOTS = /^\.+$/;
const COMMAS = /^,+$/;

export const DEFAULT_BEATS = 2;

export function readBraceSetting(content: string): BraceSetting {
  const setting = content.trim().toLowerCase();
  if (DOTS.test(setting)) return { kind: 'duration', beats: DEFAULT_BEATS / 2 ** setting.length };
  if (COMMAS.test(setting)) return { kind: 'duration', beats: DEFAULT_BEATS * 2 ** setting.length };
  if (NUMBER.test(setting)) return { kind: 'volume', volume: Number(setting) };
  const shift = PITCH_SHIFT.exec(setting);
  if (shift !== null)
    return { kind: 'pitch-shift', hertz: Number(shift[1]), cumulative: shift[2] === '&' };
  if (WAVEFORMS.has(setting)) return { kind: 'waveform', waveform: setting };
  const colon = setting.indexOf(':');
  if (colon > 0) {
    const waveform = setting.slice(0, colon);
    const volume = setting.slice(colon + 1);
    if (WAVEFORMS.has(waveform) && NUMBER.test(volume))
      return { kind: 'waveform', waveform, volume: Number(volume) };
  }
  return { kind: 'unknown' };
}
