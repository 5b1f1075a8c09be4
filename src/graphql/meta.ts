import { SERVICE_VERSION } from '../version.js';
import { builder } from './builder.js';

builder.queryField('version', (t) =>
  t.string({
    description: 'The API version this service implements.',
    resolve: () => SERVICE_VERSION,
  }),
);
