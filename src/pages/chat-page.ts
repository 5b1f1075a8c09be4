import { html } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { ChatEntry, ChatInstance } from '../operations/chat/index.js';
import { CHAT_INSTANCES } from '../operations/chat/index.js';

/** Messages the page opens with; newer ones are appended live. */
export const CHAT_PAGE_SIZE = 50;

const CHANNEL_NAMES: Record<ChatInstance, string> = {
  system: 'main chat',
  clock: 'clock chat',
  all: 'both channels',
};

/** One message as the page shows it; public/chat.js builds the same markup for live ones. */
const messageItem = (entry: ChatEntry) =>
  html`<li class="chat-message" data-id="${entry.id}"><span class="from">${entry.presented?.from ?? 'anon'}</span> <time datetime="${entry.when.toISOString()}">${entry.when.toISOString().slice(0, 16).replace('T', ' ')}</time>${entry.instance === 'clock' ? html` <span class="channel">clock</span>` : ''}<p class="text">${entry.text}</p></li>`;

/**
 * /chat: the latest messages of a channel, oldest first, then the live ones through EventSource
 * (public/chat.js), starting after `endCursor`, so none is missed between the page and the stream.
 */
export function chatPage(
  instance: ChatInstance,
  entries: ChatEntry[],
  endCursor: string | null,
): string {
  const stream = new URLSearchParams({ instance, ...(endCursor ? { after: endCursor } : {}) });
  const tabs = CHAT_INSTANCES.map((name) =>
    name === instance
      ? html`<strong>${CHANNEL_NAMES[name]}</strong>`
      : html`<a href="/chat?instance=${name}">${CHANNEL_NAMES[name]}</a>`,
  );
  const body = html`<main class="viewer chat">
<header class="item"><h1>Chat</h1><p class="meta">${tabs.flatMap((tab, i) => (i ? [html` · `, tab] : [tab]))}</p></header>
<p class="chat-status" id="chat-status" data-state="connecting">Connecting…</p>
<ol class="chat-messages" id="chat-messages" data-stream="/api/chat-messages/stream?${stream.toString()}">${entries.map(messageItem)}</ol>
${entries.length === 0 ? html`<p class="chat-empty" id="chat-empty">No messages yet.</p>` : ''}
</main>`;
  return layout({
    title: `Chat · ${CHANNEL_NAMES[instance]}`,
    description: `The latest messages of the ${CHANNEL_NAMES[instance]}, live.`,
    body,
    scripts: ['/assets/chat.js'],
  });
}
