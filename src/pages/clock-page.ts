import { parseMelody } from '../domain/melody/index.js';
import { html, jsonForScript, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { Item } from '../operations/items/item.js';
import { playbackOf } from './melody-playback.js';

/** A melody's page: `lineage` is its lineage section (src/pages/lineage-section.ts). */
export function clockPage(clock: Item<'clock'>, lineage: SafeHtml): string {
  const source = clock.source ?? '';
  const melody = parseMelody(source);
  const playback = playbackOf(clock.code, melody);
  const body = html`<main class="viewer clock">
<header class="item"><h1>clock~${clock.code}</h1><p class="meta"><span class="kind">Clock melody</span> published <time datetime="${clock.when.toISOString()}">${clock.when.toISOString().slice(0, 10)}</time> · <a class="remix-link" href="/new?kind=clock&amp;remix=${clock.code}">Remix</a></p></header>
${lineage}
<pre class="source melody" id="source"><code>${source}</code></pre>
<div class="controls">
<button type="button" id="play">Play</button>
<button type="button" id="stop" disabled>Stop</button>
<span id="player-status" role="status">Stopped</span>
</div>
<ol class="tracks" id="tracks">
${playback.tracks.map(
  (track, index) => html`<li class="track${track.muted ? ' muted' : ''}" data-track="${index}">
<span class="track-name">Track ${index + 1}${track.muted ? ' (muted)' : ''}</span>
<ol class="events">${track.events.map((event, position) => html`<li class="event ${event.frequency === null ? 'rest' : 'note'}" data-event="${position}">${event.label}</li>`)}</ol>
</li>`,
)}
</ol>
${melody.warnings.length ? html`<h2>Warnings</h2><ul class="diagnostics">${melody.warnings.map((warning) => html`<li class="warning">${String(warning)}</li>`)}</ul>` : ''}
${melody.errors.length ? html`<h2>Errors</h2><ul class="diagnostics">${melody.errors.map((error) => html`<li class="error">${String(error)}</li>`)}</ul>` : ''}
<script type="application/json" id="melody-data">${jsonForScript(playback)}</script>
</main>`;
  return layout({ title: `clock~${clock.code}`, body, scripts: ['/assets/clock.js'] });
}
