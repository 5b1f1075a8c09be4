import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import './chat.js';
import './chat-live.js';
import './kidlisp.js';
import './meta.js';
import './items.js';
import './keys.js';
import './lineage.js';
import './nodes.js';
import './publish.js';
import './scalars.js';
import './takedowns.js';
import './works-live.js';

export const schema = builder.toSchema();

export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
