export { createKey, KEYS_PER_HOUR } from './create-key.js';
export { KEY_DAYS_MAX, KEY_NAME_MAX } from './inputs.js';
export type { KeyView } from './key-view.js';
export { listKeys } from './list-keys.js';
export { revokeKey } from './revoke-key.js';
