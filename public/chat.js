// The /chat page: appends each new message of the stream (src/pages/chat-page.ts) as it arrives.
// EventSource reconnects by itself and resumes after the last message it received
// (Last-Event-ID); when the service refuses it (429/503), it is reopened after a pause.
(() => {
  const list = document.getElementById('chat-messages');
  const status = document.getElementById('chat-status');
  if (!list || !status) return;
  const streamUrl = new URL(list.dataset.stream, location.href);
  let lastId = null;
  const shown = new Set([...list.querySelectorAll('[data-id]')].map((item) => item.dataset.id));

  const setStatus = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function append(message) {
    if (shown.has(message.id)) return;
    shown.add(message.id);
    document.getElementById('chat-empty')?.remove();
    const item = element('li', 'chat-message');
    item.dataset.id = message.id;
    item.append(element('span', 'from', message.from), ' ');
    const time = element('time', '', message.when.slice(0, 16).replace('T', ' '));
    time.dateTime = message.when;
    item.append(time);
    if (message.instance === 'clock') item.append(' ', element('span', 'channel', 'clock'));
    item.append(element('p', 'text', message.text));
    const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
    list.append(item);
    if (atBottom) item.scrollIntoView({ block: 'end' });
  }

  function connect() {
    const url = new URL(streamUrl);
    if (lastId) url.searchParams.set('after', lastId);
    const source = new EventSource(url);
    source.addEventListener('open', () => setStatus('live', 'Live'));
    source.addEventListener('message', (event) => {
      lastId = event.lastEventId || lastId;
      append(JSON.parse(event.data));
    });
    source.addEventListener('removed', (event) => {
      const { id } = JSON.parse(event.data);
      list.querySelector(`[data-id="${CSS.escape(id)}"]`)?.classList.add('removed');
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        setStatus('offline', 'Disconnected; retrying in a few seconds…');
        setTimeout(connect, 5000);
      } else {
        setStatus('reconnecting', 'Reconnecting…');
      }
    });
  }
  connect();
})();
