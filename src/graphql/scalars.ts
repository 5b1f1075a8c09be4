import { parseIsoTimestamp } from '../domain/iso-time.js';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 timestamp, served in UTC with milliseconds (2026-04-20T12:00:00.000Z).',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const time = typeof value === 'string' ? parseIsoTimestamp(value) : undefined;
    if (!time) throw new TypeError('DateTime must be an ISO-8601 timestamp.');
    return time;
  },
});
