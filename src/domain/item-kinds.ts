/**
 * The kinds of published item that share one code namespace (`{base_url}/<code>`,
 * docs/contract.md, Codes and URLs); the code registry holds their codes.
 */
export const SHARED_KINDS = ['kidlisp', 'piece', 'painting', 'tape'] as const;
export type SharedKind = (typeof SHARED_KINDS)[number];

/** Every kind of published item; clocks have a code namespace of their own (`clock~<code>`). */
export const ITEM_KINDS = ['kidlisp', 'clock', 'piece', 'painting', 'tape'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
