export type { KidlispDiagnostic, KidlispPreview, KidlispStats } from './types.js';
export { KIDLISP_MAX_LENGTH, previewKidlisp } from './preview.js';
