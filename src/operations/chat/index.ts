export { CHAT_CACHE_TTL_MS } from './cache.js';
export { chatMessagesConnection, type ChatConnection } from './chat-connection.js';
export { createChatLoaders, heartsOf, senderOf, type ChatLoaders } from './loaders.js';
export {
  chatPageKey,
  createChatCache,
  listChatMessages,
  type ChatCache,
  type ChatMessage,
  type ChatPage,
} from './list-chat-messages.js';
export type { ChatEntry } from './read-window.js';
export * from './inputs.js';
