/**
 * Where WebAssembly cannot run (a browser without its 128-bit lanes, a page whose policy forbids
 * compiling it), the runtime's JavaScript draws: the same goldens hold, and blur and the layers
 * keep their definitions. This file runs the blur, spin and zoom properties and the pixel and
 * layer goldens again with WebAssembly gone (each test file runs in a process of its own).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  blurInKernel,
  composeInKernel,
  spinInKernel,
  zoomInKernel,
} from '../../../../src/domain/kidlisp/runtime/wasm/pixel-kernels.js';
import '../layers/gate.test.js';
import './blur.test.js';
import './gate.test.js';
import './transforms.test.js';

vi.stubGlobal('WebAssembly', undefined);

describe('without WebAssembly', () => {
  it('the kernels do not run, so the JavaScript above is what drew', () => {
    const data = new Uint8ClampedArray(16);
    expect(blurInKernel({ width: 2, height: 2, data }, 1)).toBe(false);
    expect(composeInKernel(data, [data], () => {})).toBe(false);
    expect(spinInKernel({ width: 2, height: 2, data }, 1, 0, 1, 1)).toBe(false);
    expect(zoomInKernel({ width: 2, height: 2, data }, new Int32Array(2), new Int32Array(2))).toBe(
      false,
    );
  });
});
