export { publishKidlisp } from './publish-kidlisp.js';
export type { PublishResult } from './source-record.js';
export { publishClock } from './publish-clock.js';
export { publishPiece } from './publish-piece.js';
export { trackMedia, type TrackMediaResult } from './track-media.js';
export * from './inputs.js';
