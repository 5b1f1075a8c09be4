export { KIDLISP_MAX_LENGTH, previewKidlisp } from './preview.js';
export type { KidlispDiagnostic, KidlispPreview, KidlispStats } from './types.js';
