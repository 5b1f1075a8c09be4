import type { Document } from 'bson';
import { defineField } from './documents.js';
import { CommandError, failedToParse, notSupported } from './errors.js';
import { isPlainObject } from './values.js';

/** Ascending, descending, or the embedded server's own trigram index (./trigrams.ts). */
export type IndexDirection = 1 | -1 | 'trigram';

export interface IndexSpec {
  v: 2;
  key: Record<string, IndexDirection>;
  name: string;
  unique?: true;
  sparse?: true;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
}

const ignoredOptions = new Set(['v', 'background', 'ns']);
const invalidSpecOption = (field: string) =>
  new CommandError(
    197,
    'InvalidIndexSpecificationOption',
    `The field '${field}' is not valid for an index specification`,
  );

const trigramOptions = new Set(['key', 'name', ...ignoredOptions]);

/** A trigram index covers one field and takes no option (no uniqueness, sparseness, filter, TTL). */
function checkTrigramSpec(raw: Document, key: Record<string, IndexDirection>): void {
  if (Object.keys(key).length !== 1)
    throw new CommandError(67, 'CannotCreateIndex', 'a trigram index covers exactly one field');
  const option = Object.keys(raw).find((name) => !trigramOptions.has(name));
  if (option !== undefined)
    throw new CommandError(67, 'CannotCreateIndex', `a trigram index takes no option '${option}'`);
}

/** Validates a `createIndexes` entry into the stored spec; refuses what this server cannot honour. */
export function parseIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
    throw failedToParse('an index specification needs a non-empty key document');
  }
  const key: Record<string, IndexDirection> = {};
  for (const [field, direction] of Object.entries(raw.key)) {
    if (direction !== 1 && direction !== -1 && direction !== 'trigram')
      throw notSupported(`index type ${JSON.stringify(direction)} on '${field}'`);
    defineField(key, field, direction);
  }
  if (Object.values(key).includes('trigram')) checkTrigramSpec(raw, key);
  const name =
    raw.name ??
    Object.entries(key)
      .map(([f, d]) => `${f}_${d}`)
      .join('_');
  if (typeof name !== 'string' || name === '')
    throw failedToParse('index name must be a non-empty string');
  const options: Partial<IndexSpec> = {};
  for (const [option, value] of Object.entries(raw)) {
    if (option === 'key' || option === 'name' || ignoredOptions.has(option)) continue;
    if (option === 'unique' || option === 'sparse') {
      if (value) options[option] = true;
    } else if (option === 'partialFilterExpression' && isPlainObject(value)) {
      options.partialFilterExpression = value;
    } else if (option === 'expireAfterSeconds' && typeof value === 'number' && value >= 0) {
      if (Object.keys(key).length !== 1) throw notSupported('a TTL index on more than one field');
      options.expireAfterSeconds = value;
    } else if (option === 'collation' || option === 'hidden' || option === 'wildcardProjection') {
      throw notSupported(`index option '${option}'`);
    } else {
      throw invalidSpecOption(option);
    }
  }
  // A fixed field order, so that equal specifications compare equal.
  const { unique, sparse, partialFilterExpression, expireAfterSeconds } = options;
  const spec: IndexSpec = {
    v: 2,
    key,
    name,
    ...(unique && { unique }),
    ...(sparse && { sparse }),
    ...(partialFilterExpression && { partialFilterExpression }),
    ...(expireAfterSeconds !== undefined && { expireAfterSeconds }),
  };
  if (name === '_id_' && (Object.keys(key).join() !== '_id' || spec.unique || spec.sparse)) {
    throw new CommandError(
      197,
      'InvalidIndexSpecificationOption',
      "the index name '_id_' is reserved for the _id index",
    );
  }
  return spec;
}
