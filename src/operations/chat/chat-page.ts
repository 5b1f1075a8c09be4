import type { ChatChannel, ChatInstance } from './inputs.js';

/** A message as GET /api/chat-messages answers it. */
export interface ChatMessage {
  id: string;
  from: string;
  text: string;
  when: string;
  instance: ChatChannel;
  hearts: number;
}

export interface ChatPage {
  instance: ChatInstance;
  search?: string;
  count: number;
  messages: ChatMessage[];
  nextBefore: string | null;
}
