/**
 * The reference's seeded generator (aesthetic.computer's KidLisp `seededRandom`): a 32-bit linear
 * congruential generator, state = (state * 1664525 + 1013904223) mod 2^32, each number the new
 * state over 2^32. Runs with one seed repeat exactly, and the pixel gate's `random`, `(box)` and
 * `(circle)` frames depend on drawing numbers in the same order as the reference does.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = Math.trunc(Math.abs(seed)) % 4294967296 || 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state * 1664525 + 1013904223) % 4294967296;
    return this.state / 4294967296;
  }

  /** An integer in [min, max], as the reference's `(random min max)`: floor(r * span) + min. */
  integer(min: number, max: number): number {
    return Math.floor(this.next() * (max - min + 1)) + min;
  }

  /** floor(r * n): the reference's `(random n)` and its random coordinates. */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.next() * items.length)];
  }
}
