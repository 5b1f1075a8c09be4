/** Every kind of published item; clocks have a code namespace of their own. */
export const ITEM_KINDS = ['kidlisp', 'clock', 'piece', 'painting', 'tape'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
