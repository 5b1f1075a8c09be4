// The /settings/keys page (src/pages/settings-keys-page.ts): asks /api/me who this browser is,
// then lists, makes and revokes that member's keys through /api/keys. Signed in, the sign-in
// cookie goes with each same-origin request; otherwise a key the member pasted, kept in this
// browser (localStorage, under PASTED_KEY, which the editor reads too), goes as a bearer token.
(() => {
  const PASTED_KEY = 'publish-gateway:key';
  const $ = (id) => document.getElementById(id);
  const whoText = $('who-text');
  if (!whoText) return;

  const pasted = () => localStorage.getItem(PASTED_KEY);
  const headers = (extra = {}) => {
    const key = pasted();
    return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
  };
  const api = async (path, init = {}) => {
    const response = await fetch(path, {
      ...init,
      credentials: 'same-origin',
      headers: headers(init.headers),
    });
    const body = response.status === 204 ? null : await response.json();
    if (!response.ok) throw new Error(body?.error ?? `HTTP ${response.status}`);
    return body;
  };
  const problem = (error) => {
    $('keys-problem').textContent = error ? error.message : '';
  };

  function keyItem(key) {
    const item = document.createElement('li');
    item.dataset.id = key.id;
    const label = document.createElement('span');
    const expires = key.expires ? `, expires ${key.expires.slice(0, 10)}` : '';
    const used = key.lastUsed ? `, last used ${key.lastUsed.slice(0, 16).replace('T', ' ')}` : '';
    label.textContent = `${key.name} (${key.prefix}…, ${key.scopes.join(' + ')}${expires}${used}) `;
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.textContent = 'Revoke';
    revoke.addEventListener('click', async () => {
      try {
        await api(`/api/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
        item.remove();
        problem(null);
      } catch (error) {
        problem(error);
      }
    });
    item.append(label, revoke);
    return item;
  }

  async function showKeys() {
    const { keys } = await api('/api/keys');
    $('key-list').replaceChildren(...keys.map(keyItem));
  }

  async function start() {
    let me;
    try {
      me = await api('/api/me');
    } catch (error) {
      // A pasted key that stopped working (revoked, expired): forget it and start over.
      if (pasted()) {
        localStorage.removeItem(PASTED_KEY);
        return start();
      }
      whoText.textContent = `Cannot tell who you are: ${error.message}`;
      return;
    }
    $('sign-out').hidden = me.via !== 'session';
    $('forget-key').hidden = !(me.account && pasted());
    if (!me.account) {
      whoText.textContent = 'You are not signed in.';
      $('sign-in').hidden = false;
      $('keys').hidden = true;
      return;
    }
    whoText.textContent = `You are ${me.handle ?? me.account}${me.via === 'session' ? ' (signed in)' : ' (with a pasted key)'}.`;
    $('sign-in').hidden = true;
    $('keys').hidden = false;
    try {
      await showKeys();
    } catch (error) {
      problem(error);
    }
  }

  $('paste-key').addEventListener('submit', (event) => {
    event.preventDefault();
    localStorage.setItem(PASTED_KEY, $('pasted-key').value.trim());
    $('pasted-key').value = '';
    start();
  });
  $('forget-key').addEventListener('click', () => {
    localStorage.removeItem(PASTED_KEY);
    start();
  });
  $('create-key').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.target;
    const scopes = ['publish', 'keys'].filter((scope) => form.elements[scope].checked);
    const days = Number(form.elements.days.value);
    try {
      const created = await api('/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: form.elements.name.value,
          scopes,
          ...(days ? { expiresInDays: days } : {}),
        }),
      });
      $('new-key-value').textContent = created.key;
      $('new-key').hidden = false;
      problem(null);
      await showKeys();
    } catch (error) {
      problem(error);
    }
  });

  start();
})();
