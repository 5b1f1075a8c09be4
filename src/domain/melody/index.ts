export { MELODY_MAX_LENGTH, parseMelody } from './parse.js';
export type { MelodyNote, MelodyParse, MelodySection, MelodyTrack } from './types.js';
