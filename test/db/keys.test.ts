import { Binary, BSONRegExp, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { expect, it } from 'vitest';
import { encodeValue, invert, valueEnd } from '../../src/db/embedded/keys.js';

it('finds where each encoded value ends, ascending and inverted, so a key yields its _id', () => {
  const values = [
    null,
    new MinKey(),
    new MaxKey(),
    Number.NaN,
    -2.5,
    Long.fromNumber(7),
    'text with \u0000 inside',
    '',
    { a: 1, b: { c: ['x', null] } },
    [1, [2, 'three'], {}],
    new Binary(Buffer.from([0, 255, 0])),
    new ObjectId(),
    true,
    new Date(-5),
    new Timestamp({ t: 3, i: 4 }),
    new BSONRegExp('^a.b', 'i'),
  ];
  const tail = encodeValue(new ObjectId());
  for (const value of values) {
    const encoded = encodeValue(value);
    expect(valueEnd(Buffer.concat([encoded, tail]), 0)).toBe(encoded.length);
    expect(valueEnd(Buffer.concat([invert(encoded), tail]), 0, true)).toBe(encoded.length);
  }
});
