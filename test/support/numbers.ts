import fc from 'fast-check';

/**
 * A number from min to max: spread evenly (in thousandths), or fast-check's doubles. Its doubles
 * alone are mostly the extremes and numbers very near 0, so a property over an angle, a centre
 * or an amount would hardly ever meet the everyday values between.
 */
export const between = (min: number, max: number) =>
  fc.oneof(
    fc.integer({ min: Math.round(min * 1000), max: Math.round(max * 1000) }).map((n) => n / 1000),
    fc.double({ min, max, noNaN: true }),
  );
