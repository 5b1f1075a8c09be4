export { CHAT_CACHE_TTL_MS, type ChatCache, createChatCache } from './cache.js';
export type { ChatMessage, ChatPage } from './chat-page.js';
export { chatMessagesConnection, type ChatConnection } from './chat-connection.js';
export { chatLoaders, heartsOf, senderOf, type ChatLoaders } from './loaders.js';
export { chatPageKey, listChatMessages } from './list-chat-messages.js';
export type { ChatEntry } from './read-window.js';
export * from './inputs.js';
