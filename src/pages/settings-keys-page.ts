import { SIGN_IN_PATH } from '../auth/sign-in.js';
import { html } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';

export const KEYS_PAGE_PATH = '/settings/keys';

/**
 * /settings/keys: the member's keys, listed, made and revoked by the page's script
 * (public/settings-keys.js) through /api/me and /api/keys. The page itself names nobody, so any
 * cache may keep it. Signed in, the script acts with the sign-in cookie; otherwise with a key the
 * member pastes, kept in this browser (localStorage) and sent as a bearer token.
 */
export function keysPage(canSignIn: boolean): string {
  const body = html`<main class="viewer settings">
<header class="item"><h1>Your keys</h1>
<p class="meta">Keys let an assistant publish as you: give one to <code>publish-mcp</code> as <code>SERVICE_TOKEN</code>, or send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p></header>
<section id="who" aria-live="polite"><p id="who-text">Checking who you are…</p>
<form id="sign-out" method="post" action="/auth/sign-out" hidden><button type="submit">Sign out</button></form>
<button type="button" id="forget-key" hidden>Forget the pasted key</button></section>
<section id="sign-in" hidden>
${canSignIn ? html`<p><a id="sign-in-link" href="${SIGN_IN_PATH}?return=/settings/keys">Sign in</a> to manage your keys.</p>` : ''}
<form id="paste-key"><label for="pasted-key">${canSignIn ? 'Or paste' : 'Paste'} a key that may manage keys (a key from <code>publish-gateway token create</code>):</label>
<input id="pasted-key" name="key" type="password" autocomplete="off" required>
<button type="submit">Use this key</button></form>
</section>
<section id="keys" hidden>
<h2>Make a key</h2>
<form id="create-key">
<label for="key-name">Name</label> <input id="key-name" name="name" required maxlength="100" value="my assistant">
<label><input type="checkbox" name="publish" checked> publish</label>
<label><input type="checkbox" name="keys"> manage keys</label>
<label for="key-days">Expires in days</label> <input id="key-days" name="days" type="number" min="1" max="365" value="90">
<button type="submit" id="create-key-button">Make key</button>
</form>
<div id="new-key" hidden><p>Your new key, shown only now:</p><pre><code id="new-key-value"></code></pre></div>
<p id="keys-problem" class="problem" role="alert"></p>
<h2>Your keys</h2>
<ul id="key-list"></ul>
</section>
</main>`;
  return layout({
    title: 'Your keys',
    description: 'Make, list and revoke the keys your assistants publish with.',
    body,
    scripts: ['/assets/settings-keys.js'],
  });
}
