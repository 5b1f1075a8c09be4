/**
 * How much likelier a document holding `a` holds `b` too, when both come from one pattern:
 * trigrams that overlap there (the end of one is the start of the other) are mostly found
 * together, as "500" and "001" of "500123" are, so probing one after the other rejects little.
 */
function overlapWeight(a: string, b: string): number {
  const [a0, a1, a2] = Array.from(a);
  const [b0, b1, b2] = Array.from(b);
  if ((a1 === b0 && a2 === b1) || (b1 === a0 && b2 === a1)) return 8;
  if (a2 === b0 || b2 === a0) return 3;
  return 1;
}

/**
 * The order to probe a driver's candidates for the other trigrams (ranked, the rarest first):
 * each next one the rarest once weighted by how much it overlaps those before it, so the
 * candidates fall away as early as they can. Any order gives the same answers.
 */
export function probeOrder(
  driver: string,
  others: readonly string[],
  count: (trigram: string) => number,
): string[] {
  const chosen = [driver];
  const left = [...others];
  while (left.length > 0) {
    let best = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    left.forEach((trigram, i) => {
      const weight = Math.max(...chosen.map((before) => overlapWeight(before, trigram)));
      const score = count(trigram) * weight;
      if (score < bestScore) {
        best = i;
        bestScore = score;
      }
    });
    chosen.push(...left.splice(best, 1));
  }
  return chosen.slice(1);
}
