// The clock~<code> player: reads the parsed melody from #melody-data and plays it with Web Audio.
// Sections play one after another (each `loops` times), their tracks in parallel; a shorter track
// loops until the longest one in its section ends; the whole melody repeats until Stop.
// The last SCHEDULED_KEPT scheduled notes are kept in window.__clock.scheduled (for tests and curious
// people); body[data-scheduled] counts every note scheduled since the page loaded.
(() => {
  'use strict';

  // Read again at each Play: the melody editor (/new?kind=clock) rewrites it as the person types.
  const readData = () => JSON.parse(document.getElementById('melody-data').textContent || '{}');
  let data = readData();
  const playButton = document.getElementById('play');
  const stopButton = document.getElementById('stop');
  const statusText = document.getElementById('player-status');
  const OSCILLATOR_TYPES = { sine: 1, square: 1, sawtooth: 1, triangle: 1 };
  const PEAK = 0.2; // per voice, so that several tracks together stay below clipping
  const LOOKAHEAD = 0.5; // seconds before a cycle ends when the next one is scheduled
  const SCHEDULED_KEPT = 500; // so that a melody left playing does not grow the record without bound
  let scheduledTotal = 0;

  const state = {
    context: null,
    playing: false,
    nodes: [],
    timer: 0,
    frame: 0,
    cycles: [],
    noise: null,
  };
  const clock = {
    scheduled: [],
    cycles: 0,
    get state() {
      return state.context ? state.context.state : 'none';
    },
    get playing() {
      return state.playing;
    },
  };
  window.__clock = clock;

  function trackSeconds(track) {
    return track.events.reduce((sum, event) => sum + event.seconds, 0);
  }

  function sectionSeconds(section) {
    return section.tracks.reduce(
      (longest, index) => Math.max(longest, trackSeconds(data.tracks[index])),
      0,
    );
  }

  function noiseBuffer(context) {
    if (state.noise) return state.noise;
    const buffer = context.createBuffer(1, context.sampleRate, context.sampleRate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
    state.noise = buffer;
    return buffer;
  }

  function voice(context, event) {
    if (event.waveform === 'noise-white') {
      const noise = context.createBufferSource();
      noise.buffer = noiseBuffer(context);
      noise.loop = true;
      return noise;
    }
    const oscillator = context.createOscillator();
    oscillator.type = OSCILLATOR_TYPES[event.waveform] ? event.waveform : 'sine';
    oscillator.frequency.value = event.frequency;
    return oscillator;
  }

  function scheduleNote(context, event, at, seconds, trackIndex, eventIndex, timeline) {
    const source = voice(context, event);
    const gain = context.createGain();
    const peak = PEAK * Math.max(0, Math.min(1, event.volume));
    const attack = Math.min(0.01, seconds / 4);
    const release = Math.min(0.05, seconds / 4);
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(peak, at + attack);
    gain.gain.setValueAtTime(peak, at + seconds - release);
    gain.gain.linearRampToValueAtTime(0, at + seconds);
    source.connect(gain);
    gain.connect(context.destination);
    source.start(at);
    source.stop(at + seconds + 0.01);
    state.nodes.push(source);
    source.onended = () => {
      const position = state.nodes.indexOf(source);
      if (position !== -1) state.nodes.splice(position, 1);
      gain.disconnect();
    };
    const entry = {
      track: trackIndex,
      event: eventIndex,
      note: event.label,
      frequency: event.frequency,
      waveform: event.waveform,
      start: at,
      duration: seconds,
    };
    clock.scheduled.push(entry);
    scheduledTotal += 1;
    if (clock.scheduled.length > SCHEDULED_KEPT)
      clock.scheduled.splice(0, clock.scheduled.length - SCHEDULED_KEPT);
    timeline.push(entry);
  }

  /** Schedules one pass of the whole melody from `start`; returns its length in seconds. */
  function scheduleCycle(context, start) {
    const timeline = [];
    let sectionStart = start;
    data.sections.forEach((section) => {
      const length = sectionSeconds(section);
      for (let loop = 0; loop < section.loops && length > 0; loop++) {
        const end = sectionStart + length;
        section.tracks.forEach((trackIndex) => {
          const track = data.tracks[trackIndex];
          if (track.muted || trackSeconds(track) <= 0) return;
          let at = sectionStart;
          while (at < end - 1e-6) {
            for (let i = 0; i < track.events.length && at < end - 1e-6; i++) {
              const event = track.events[i];
              const seconds = Math.min(event.seconds, end - at);
              if (event.frequency !== null && seconds > 0)
                scheduleNote(context, event, at, seconds, trackIndex, i, timeline);
              at += event.seconds;
            }
          }
        });
        sectionStart = end;
      }
    });
    state.cycles.push(timeline);
    if (state.cycles.length > 2) state.cycles.shift();
    clock.cycles += 1;
    return sectionStart - start;
  }

  function loop(context, start) {
    const length = scheduleCycle(context, start);
    document.body.setAttribute('data-scheduled', String(scheduledTotal));
    if (length <= 0) return;
    const next = start + length;
    state.timer = window.setTimeout(
      () => {
        if (state.playing) loop(context, next);
      },
      Math.max(0, (next - context.currentTime - LOOKAHEAD) * 1000),
    );
  }

  function highlight() {
    const now = state.context ? state.context.currentTime : 0;
    const playing = {};
    state.cycles.forEach((timeline) => {
      timeline.forEach((entry) => {
        if (entry.start <= now && now < entry.start + entry.duration)
          playing[`${entry.track}:${entry.event}`] = true;
      });
    });
    document.querySelectorAll('.track').forEach((trackElement) => {
      const trackIndex = trackElement.getAttribute('data-track');
      trackElement.querySelectorAll('.event').forEach((eventElement) => {
        const key = `${trackIndex}:${eventElement.getAttribute('data-event')}`;
        eventElement.classList.toggle('playing', !!playing[key] && state.playing);
      });
    });
    if (state.playing) state.frame = window.requestAnimationFrame(highlight);
  }

  function setStatus(text, playing) {
    statusText.textContent = text;
    playButton.disabled = playing;
    stopButton.disabled = !playing;
    document.body.setAttribute('data-clock-state', playing ? 'playing' : 'stopped');
  }

  function play() {
    if (state.playing) return;
    data = readData();
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) {
      setStatus('This browser has no Web Audio.', false);
      return;
    }
    state.context = state.context || new AudioContextClass();
    const context = state.context;
    state.playing = true;
    setStatus('Starting…', true);
    context.resume().then(() => {
      if (!state.playing) return;
      loop(context, context.currentTime + 0.1);
      setStatus('Playing', true);
      state.frame = window.requestAnimationFrame(highlight);
    });
  }

  function stop() {
    state.playing = false;
    window.clearTimeout(state.timer);
    window.cancelAnimationFrame(state.frame);
    state.nodes.slice().forEach((node) => {
      try {
        node.stop();
      } catch {
        // already stopped
      }
    });
    state.nodes = [];
    state.cycles = [];
    highlight();
    setStatus('Stopped', false);
  }

  playButton.addEventListener('click', play);
  stopButton.addEventListener('click', stop);
  setStatus('Stopped', false);
})();
