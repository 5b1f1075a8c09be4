/** What `scroll` remembers between frames: its chosen direction and the fractions not moved yet. */
export class ScrollState {
  direction: readonly [number, number] | undefined;
  carryX = 0;
  carryY = 0;
}
