import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import './meta.js';
import './publish.js';

export const schema = builder.toSchema();

export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
