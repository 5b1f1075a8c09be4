import type { Anchor } from '../raster/stamp.js';
import { isPaintingCode } from '../words.js';
import type { Builtin, Interpreter } from './interpreter.js';
import type { Value } from './value.js';

/**
 * `(stamp #code x y scale degrees)`: the painting centered on (x, y), the screen's center when
 * they are missing; `(paste #code x y scale)`: its top-left corner at (x, y), 0 0 when missing;
 * `(painting #code x y scale)` pastes as well. A bare `#code` and `(#code x y ...)` stamp (the
 * interpreter reads them as `(stamp #code ...)`). The painting's pixels come from the runtime's
 * `loadPainting` (paintings.ts); until they arrive nothing is drawn.
 */
function picture(anchor: Anchor, word: string): Builtin {
  return (rt, list, scope) => {
    const values = rt.evalArgs(list, scope);
    const code = values[0];
    if (typeof code !== 'string' || !isPaintingCode(code)) {
      // URLs, @handle/timestamp pictures and the visitor's own painting are not here.
      rt.tell('unsupported', `${word} (only #code paintings are drawn here)`);
      return undefined;
    }
    place(rt, code, values.slice(1), anchor);
    return undefined;
  };
}

function place(rt: Interpreter, code: string, values: readonly Value[], anchor: Anchor): void {
  const pixels = rt.paintingPixels(code);
  if (pixels === undefined) return;
  const { width, height } = rt.screen;
  const centered = anchor === 'center';
  const at = (index: number, fallback: number) =>
    values.length > index ? rt.toNumber(values[index]) : fallback;
  const x = at(0, centered ? width / 2 : 0);
  const y = at(1, centered ? height / 2 : 0);
  const scale = at(2, 1);
  const degrees = centered ? at(3, 0) : 0;
  rt.drawPicture(pixels, { x, y, scale, degrees, anchor });
}

export const PAINTING_BUILTINS: readonly (readonly [string, Builtin])[] = [
  ['stamp', picture('center', 'stamp')],
  ['paste', picture('corner', 'paste')],
  ['painting', picture('corner', 'painting')],
];
