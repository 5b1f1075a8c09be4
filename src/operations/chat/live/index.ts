export { probeChangeStreams } from './change-stream-source.js';
export type { ChatRemoval, LiveChatEvent } from './events.js';
export { type ChatHub, createChatHub, type LiveChatMode } from './hub.js';
export { REPLAY_MAX, subscribeChatMessages } from './subscribe-chat-messages.js';
export type { ChatFeed } from './subscriber.js';
