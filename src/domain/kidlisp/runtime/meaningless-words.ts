/**
 * Built-in words of the reference that cannot mean anything in a viewer here (issue 35 names
 * `tape` and the network words other than `net.handles`): the notice names each with its reason.
 */
const REASONS: ReadonlyMap<string, string> = new Map([
  ['tape', 'tapes are recordings kept by aesthetic.computer; none are kept here'],
  ['fetch', 'a viewer here does not fetch from other sites'],
  ['get', 'it reads what fetch fetched, and a viewer here does not fetch'],
]);

/** `tape (tapes are ...)` for such a word; the word alone for any other. */
export function withReason(word: string): string {
  const reason = REASONS.get(word);
  return reason === undefined ? word : `${word} (${reason})`;
}
