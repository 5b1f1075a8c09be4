export * from './inputs.js';
export { publishClock } from './publish-clock.js';
export { publishKidlisp } from './publish-kidlisp.js';
export { publishPiece } from './publish-piece.js';
export type { PublishResult } from './source-record.js';
export { type TrackMediaResult, trackMedia } from './track-media.js';
