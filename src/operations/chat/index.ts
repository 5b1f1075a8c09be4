export { CHAT_CACHE_TTL_MS, type ChatCache, createChatCache } from './cache.js';
export { type ChatConnection, chatMessagesConnection } from './chat-connection.js';
export type { ChatMessage, ChatPage } from './chat-page.js';
export * from './inputs.js';
export { chatPageKey, listChatMessages } from './list-chat-messages.js';
export { type ChatLoaders, chatLoaders, heartsOf, senderOf } from './loaders.js';
export type { ChatEntry } from './read-window.js';
