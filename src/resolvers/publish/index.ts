export { publishKidlisp, type PublishResult } from './publish-kidlisp.js';
export { publishClock } from './publish-clock.js';
export { publishPiece } from './publish-piece.js';
export { trackMedia, type TrackMediaResult } from './track-media.js';
export * from './inputs.js';
