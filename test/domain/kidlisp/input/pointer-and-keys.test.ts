import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeyInput, PointerInput } from '../../../../src/domain/kidlisp/runtime/index.js';
import { run } from '../runtime/helpers.js';

const RED = [255, 0, 0, 255];

/** The width of the red run at the start of a row. */
function redWidth(surface: ReturnType<typeof run>['surface'], row: number): number {
  let x = 0;
  while (x < surface.width && surface.pixel(x, row).join() === RED.join()) x++;
  return x;
}

/** Runs one frame, delivers `events`, runs a second frame. */
function afterEvents(source: string, events: (PointerInput | KeyInput)[]) {
  const result = run(source);
  for (const event of events)
    if ('key' in event) result.runtime.key(event);
    else result.runtime.pointer(event);
  result.runtime.frame({ frame: 1, ms: 16 });
  return result;
}

describe('dx and dy', () => {
  const source =
    '(def ax 0) (def ay 0) (draw (now ax dx) (now ay dy)) (wipe black) (ink red) (box 0 0 ax 1) (box 0 1 ay 1) (box 0 2 (+ 1 dx) 1)';

  it('are the drag movement inside the draw body, given by the event', () => {
    const { surface } = afterEvents(source, [
      { type: 'touch', x: 10, y: 10 },
      { type: 'draw', x: 14, y: 16, dx: 7, dy: 3 },
    ]);
    expect([redWidth(surface, 0), redWidth(surface, 1)]).toEqual([7, 3]);
  });

  it('default to the movement since the last event, and read 0 outside the draw body', () => {
    const { surface } = afterEvents(source, [
      { type: 'touch', x: 10, y: 10 },
      { type: 'draw', x: 14, y: 16 },
    ]);
    expect([redWidth(surface, 0), redWidth(surface, 1), redWidth(surface, 2)]).toEqual([4, 6, 1]);
  });
});

describe('keys', () => {
  const source =
    '(def taps 0) (def lifts 0) (tap (now taps (+ taps 1))) (lift (now lifts (+ lifts 1))) (wipe black) (ink red) (box 0 0 taps 1) (box 0 1 lifts 1) (box 0 2 (+ 1 penx) 1) (box 0 3 (+ 1 peny) 1) (box 0 4 (+ 1 down) 1)';

  it('Space presses and releases the pen once, however long it is held', () => {
    const { surface } = afterEvents(source, [
      { type: 'keydown', key: ' ' },
      { type: 'keydown', key: ' ' },
      { type: 'keyup', key: ' ' },
    ]);
    expect([redWidth(surface, 0), redWidth(surface, 1), redWidth(surface, 4)]).toEqual([1, 1, 1]);
  });

  it('Enter held stays down; arrows move the pen; other keys do nothing', () => {
    const { surface } = afterEvents(source, [
      { type: 'keydown', key: 'ArrowRight' },
      { type: 'keydown', key: 'ArrowRight' },
      { type: 'keydown', key: 'ArrowDown' },
      { type: 'keydown', key: 'a' },
      { type: 'keyup', key: 'Escape' },
      { type: 'keydown', key: 'Enter' },
    ]);
    expect([0, 1, 2, 3, 4].map((row) => redWidth(surface, row))).toEqual([1, 0, 3, 2, 2]);
  });

  it('a key release without a key press does not lift a pointer press', () => {
    const { surface } = afterEvents(source, [
      { type: 'touch', x: 5, y: 5 },
      { type: 'keyup', key: 'Enter' },
    ]);
    expect([redWidth(surface, 1), redWidth(surface, 4)]).toEqual([0, 2]);
  });
});

const pointerEvent = fc.record({
  type: fc.constantFrom('touch', 'draw', 'lift'),
  x: fc.oneof(fc.double(), fc.integer({ min: -100, max: 100 })),
  y: fc.oneof(fc.double(), fc.integer({ min: -100, max: 100 })),
  dx: fc.option(fc.double(), { nil: undefined }),
  dy: fc.option(fc.double(), { nil: undefined }),
}) as fc.Arbitrary<PointerInput>;
const keyEvent = fc.record({
  type: fc.constantFrom('keydown', 'keyup'),
  key: fc.oneof(
    fc.constantFrom('Enter', ' ', 'ArrowLeft', 'ArrowUp', 'x', 'valueOf', '__proto__'),
    fc.string(),
  ),
}) as fc.Arbitrary<KeyInput>;

describe('input: properties', () => {
  it('any events never throw and leave nothing in the report', () => {
    const source =
      '(tap (box penx peny 2 2)) (draw (line penx peny (- penx dx) (- peny dy))) (lift (wipe (? red blue))) (box penx peny dx dy)';
    fc.assert(
      fc.property(fc.array(fc.oneof(pointerEvent, keyEvent), { maxLength: 30 }), (events) => {
        const { runtime, surface } = afterEvents(source, events);
        expect(runtime.report().problems).toEqual([]);
        expect(surface.width).toBe(64);
      }),
      { numRuns: Number(process.env.INPUT_RUNS ?? 200) },
    );
  });
});
