import {
  createKidlispRuntime,
  type KidlispRuntime,
  type RuntimeOptions,
} from '../../../../src/domain/kidlisp/runtime/index.js';
import { PixelSurface } from './pixel-surface.js';

export interface Run {
  surface: PixelSurface;
  runtime: KidlispRuntime;
}

/** Runs `frames` frames 1/60 s apart (or `ms` apart) on a fresh pixel surface. */
export function run(
  source: string,
  options: Partial<RuntimeOptions> & { frames?: number; size?: number; msPerFrame?: number } = {},
): Run {
  const { frames = 1, size = 64, msPerFrame = 1000 / 60, ...rest } = options;
  const surface = new PixelSurface(size, size);
  const runtime = createKidlispRuntime(source, { surface, ...rest });
  for (let frame = 0; frame < frames; frame++) runtime.frame({ frame, ms: frame * msPerFrame });
  return { surface, runtime };
}
