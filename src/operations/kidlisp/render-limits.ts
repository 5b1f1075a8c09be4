/** render_kidlisp's limits (no other imports: the stdio package's catalog reads them). */
export const RENDER_SIZE_MAX = 512;
export const RENDER_SIZE_DEFAULT = 256;
export const RENDER_FRAMES_MAX = 8;
/** The latest frame a render may ask for: one minute at 60 frames a second. */
export const RENDER_FRAME_LAST = 3_600;
export const RENDER_SEED_MAX = 2 ** 32 - 1;

/** Wall-clock time one render may take, the worker's start included (the thumbnails' budget). */
export const RENDER_BUDGET_MS = 5_000;
