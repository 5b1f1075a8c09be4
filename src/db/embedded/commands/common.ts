import type { Document } from 'bson';
import { Query } from 'mingo';
import type { Activity } from '../activity.js';
import type { ChangeStreams } from '../change-streams.js';
import type { Credentials } from '../credentials.js';
import type { Cursors, Present } from '../cursors.js';
import { cloneDeep } from '../documents.js';
import { badValue, CommandError } from '../errors.js';
import { simpleProjection } from '../projection.js';
import { mingoOptions, prepare, viaMingo } from '../query.js';
import type { Connection } from '../server.js';
import type { Store } from '../store.js';
import { isPlainObject } from '../values.js';

export interface Context {
  store: Store;
  cursors: Cursors;
  changeStreams: ChangeStreams;
  connection: Connection;
  /** Present when TCP clients must authenticate (SCRAM-SHA-256). */
  credentials?: Credentials | undefined;
  activity: Activity;
}

/** A command: its document and database in, the reply (without `ok`) out; throws CommandError. */
/** A reply now, or (a find whose scan runs in slices, ../slices.ts) once it is ready. */
export type Handler = (
  command: Document,
  db: string,
  context: Context,
) => Document | Promise<Document>;

/** The collection a command names in its first field. */
export function collectionArg(command: Document, field: string): string {
  const name = command[field];
  if (typeof name !== 'string' || name === '') {
    throw new CommandError(
      73,
      'InvalidNamespace',
      `collection name has invalid type ${typeof name}`,
    );
  }
  return name;
}

/** A non-negative integer option, or the fallback when absent. */
export function countArg(command: Document, field: string, fallback = 0): number {
  const value = command[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw badValue(`${field} must be a non-negative integer, not ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Applies a find-style projection: inclusions or exclusions directly (keeping the document's
 * field order, `_id` first), anything else with mingo on copies (mingo edits what it projects),
 * `_id` then moved first. `filter`, which the documents match, serves positional projections.
 */
export function projector(projection: unknown, filter: unknown): Present | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection)) throw badValue('projection must be an object');
  if (Object.keys(projection).length === 0) return undefined;
  const simple = simpleProjection(projection);
  if (simple) return (docs) => docs.map(simple);
  const query = viaMingo(() => new Query((prepare(filter) ?? {}) as Document, mingoOptions));
  return (docs) =>
    viaMingo(
      () =>
        query
          .find(
            docs.map((doc) => cloneDeep(doc) as Document),
            projection,
          )
          .all() as Document[],
    ).map(idFirst);
}

/** The document with `_id` (if any) as its first field, as MongoDB returns it. */
export function idFirst(doc: Document): Document {
  if (!Object.hasOwn(doc, '_id') || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}
