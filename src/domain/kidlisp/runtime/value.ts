/** `?` as an argument: a random number whose range depends on where it is used. */
export const RANDOM: unique symbol = Symbol('?');

/** What a KidLisp expression evaluates to. */
export type Value = number | string | boolean | undefined | typeof RANDOM;
