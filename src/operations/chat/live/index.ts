export { probeChangeStreams } from './change-stream-source.js';
export type { ChatHub, LiveChatMode } from './chat-hub.js';
export type { ChatRemoval, LiveChatEvent } from './events.js';
export { createChatHub } from './hub.js';
export { presentEntries } from './present.js';
export { REPLAY_MAX } from './replay.js';
export { subscribeChatMessages } from './subscribe-chat-messages.js';
export type { ChatFeed } from './subscriber.js';
