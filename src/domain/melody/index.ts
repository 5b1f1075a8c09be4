export type { MelodyNote, MelodyParse, MelodySection, MelodyTrack } from './types.js';
export { MELODY_MAX_LENGTH, parseMelody } from './parse.js';
