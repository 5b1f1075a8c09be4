import { formatCount } from '../format.js';
import { MelodyReport } from './report.js';
import { type Lookups, nextIndexTable, type SectionRange, scanSections } from './scanner.js';
import { DEFAULT_VOICE, parseTrack, type Voice } from './track.js';
import type { MelodyParse, MelodySection, MelodyTrack } from './types.js';

export const MELODY_MAX_LENGTH = 10_000;

/** Parses a clock melody into parallel tracks of notes, with warnings and errors. Never throws. */
export function parseMelody(text: string): MelodyParse {
  try {
    return parse(typeof text === 'string' ? text : String(text));
  } catch (error) {
    // A bug here must not take the caller down; report it like any other problem.
    return failure([`The melody parser failed on this text (${String(error)})`]);
  }
}

function failure(errors: string[]): MelodyParse {
  return { valid: false, errors, warnings: [], tracks: [], sections: [] };
}

function parse(text: string): MelodyParse {
  if (text.length > MELODY_MAX_LENGTH) {
    return failure([
      `Melody is ${formatCount(text.length)} characters, over the limit of ${formatCount(MELODY_MAX_LENGTH)}`,
    ]);
  }
  if (text.trim() === '') return failure(['Melody is empty']);

  const report = new MelodyReport(text);
  const lookups: Lookups = {
    nextBraceClose: nextIndexTable(text, '}'),
    nextQuote: nextIndexTable(text, '"'),
  };
  const firstHash = text.indexOf('#');
  if (firstHash >= 0) {
    report.warning(
      firstHash,
      `'#' at ${report.where(firstHash)} cuts a clock URL short (everything after it is lost); write sharps with 's' (cs, not c#)`,
    );
  }

  const sections: MelodySection[] = [];
  let voice: Voice = DEFAULT_VOICE;
  for (const range of scanSections(text, lookups, report)) {
    const parsed = parseSection(text, range, voice, lookups, report);
    voice = parsed.voice;
    if (parsed.section.tracks.length > 0) sections.push(parsed.section);
    else if (range.endsAt !== undefined)
      report.warning(range.endsAt, `Empty section before '>' at ${report.where(range.endsAt)}`);
  }
  const tracks = sections.flatMap((section) => section.tracks);
  const missing = missingNoteError(tracks);
  const errors = report.errorMessages();
  if (missing !== undefined) errors.push(missing);
  return {
    valid: errors.length === 0,
    errors,
    warnings: report.warningMessages(),
    tracks,
    sections,
  };
}

function parseSection(
  text: string,
  range: SectionRange,
  startVoice: Voice,
  lookups: Lookups,
  report: MelodyReport,
): { section: MelodySection; voice: Voice } {
  const tracks: MelodyTrack[] = [];
  let voice = startVoice;
  for (const word of range.words) {
    const result = parseTrack(text, word, voice, lookups, report);
    if (result.settingsOnly) {
      // A word of settings alone, such as a leading `{square}`, applies to the tracks after it.
      voice = result.voice;
    } else if (result.track.events.length > 0) {
      tracks.push(result.track);
    } else if (!/\d/.test(text.slice(word.start, word.end))) {
      report.warning(
        word.start,
        `Track '${text.slice(word.start, word.end)}' at ${report.where(word.start)} has no notes`,
      );
    }
  }
  if (range.loops === 0 && range.endsAt !== undefined && tracks.length > 0) {
    report.warning(
      range.endsAt,
      `Loop count 0 at ${report.where(range.endsAt)} means the section before it never plays`,
    );
  }
  return { section: { loops: range.loops, tracks }, voice };
}

function missingNoteError(tracks: readonly MelodyTrack[]): string | undefined {
  const sounds = (track: MelodyTrack): boolean =>
    track.events.some((event) => event.frequency !== undefined || event.text !== undefined);
  const audible = tracks.filter((track) => sounds(track));
  if (audible.some((track) => !track.muted)) return undefined;
  if (audible.length > 0) return 'No playable note: every track with notes is muted (x)';
  return 'No playable note: write notes a to g, e.g. cdefg';
}
