import { parseMelody } from '../domain/melody/index.js';
import { html, jsonForScript, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { Item } from '../operations/items/item.js';

type ParsedMelody = ReturnType<typeof parseMelody>;
type ParsedEvent = ParsedMelody['tracks'][number]['events'][number];

/** One sound or silence as the player schedules it. */
interface PlaybackEvent {
  label: string;
  /** null for a rest. */
  frequency: number | null;
  seconds: number;
  waveform: string;
  volume: number;
}

/** Tracks in text order; sections play one after another, each `loops` times, its tracks in parallel. */
interface Playback {
  code: string;
  tracks: { muted: boolean; events: PlaybackEvent[] }[];
  sections: { loops: number; tracks: number[] }[];
}

function playbackEvent(event: ParsedEvent): PlaybackEvent {
  const sounding =
    event.kind === 'note' && typeof event.frequency === 'number' && event.frequency > 0;
  return {
    label:
      event.kind === 'rest'
        ? '_'
        : event.text !== undefined
          ? `"${event.text}"`
          : `${event.note ?? '?'}${event.octave ?? ''}`,
    frequency: sounding ? (event.frequency as number) : null,
    seconds: event.seconds,
    waveform: event.waveform,
    volume: event.volume,
  };
}

/** The parse reduced to what the browser player needs. */
function playbackOf(code: string, melody: ParsedMelody): Playback {
  const { tracks, sections } = melody;
  // Sections hold the tracks in text order, so track indices simply run on from section to section.
  let next = 0;
  const grouped = sections.map((section) => ({
    loops: section.loops,
    tracks: section.tracks.map(() => next++),
  }));
  return {
    code,
    tracks: tracks.map((track) => ({
      muted: track.muted,
      events: track.events.map(playbackEvent),
    })),
    sections:
      next === tracks.length ? grouped : [{ loops: 1, tracks: tracks.map((_, index) => index) }],
  };
}

/** A melody's page: `lineage` is its lineage section (src/pages/lineage-section.ts). */
export function clockPage(clock: Item<'clock'>, lineage: SafeHtml): string {
  const source = clock.source ?? '';
  const melody = parseMelody(source);
  const playback = playbackOf(clock.code, melody);
  const body = html`<main class="viewer clock">
<header class="item"><h1>clock~${clock.code}</h1><p class="meta"><span class="kind">Clock melody</span> published <time datetime="${clock.when.toISOString()}">${clock.when.toISOString().slice(0, 10)}</time></p></header>
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
