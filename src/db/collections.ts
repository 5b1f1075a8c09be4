import type { ObjectId } from 'mongodb';
import type { ItemKind, SharedKind } from '../domain/item-kinds.js';

/** Every collection this service touches, by its name in the reference layout. */
export const collectionNames = {
  kidlisp: 'kidlisp',
  clocks: 'clocks',
  pieces: 'pieces',
  paintings: 'paintings',
  tapes: 'tapes',
  chatSystem: 'chat-system',
  chatClock: 'chat-clock',
  hearts: 'hearts',
  handles: '@handles',
  // Our own additions (docs/contract.md, Database layout: in collections of their own).
  codes: 'codes',
  apiTokens: 'api-tokens',
  rateLimits: 'rate-limits',
  itemHits: 'item-hits',
  thumbnails: 'thumbnails',
  // Take-downs (src/operations/takedowns/): removed works, visitors' reports, the removal counter.
  removedWorks: 'removed-works',
  workReports: 'work-reports',
  removalGeneration: 'removal-generation',
  handleClaims: 'handle-claims',
  sessions: 'sessions',
  signIns: 'sign-ins',
} as const;

/**
 * The work a record was remixed from (docs/contract.md, Remix lineage): a field the reference's
 * readers ignore, written with the record in its one insert and never changed afterwards.
 */
export interface RemixOfField {
  kind: ItemKind;
  code: string;
}

export interface SourceRecord {
  _id?: ObjectId;
  code: string;
  source: string;
  hash: string;
  when: Date;
  lastAccessed: Date;
  hits: number;
  user?: string;
  remixOf?: RemixOfField;
}

export type KidlispRecord = SourceRecord;
export type ClockRecord = SourceRecord;

export interface PieceRecord {
  _id?: ObjectId;
  code: string;
  slug: string;
  when: Date;
  user?: string;
  // store-piece records
  name?: string;
  source?: string;
  hash?: string;
  bucket?: string;
  lastAccessed?: Date;
  hits?: number;
  anonymous?: boolean;
  // track-media records
  ext?: string;
  remixOf?: RemixOfField;
}

export interface PaintingRecord {
  _id?: ObjectId;
  code: string;
  slug: string;
  when: Date;
  user?: string;
  remixOf?: RemixOfField;
}

export interface TapeRecord {
  _id?: ObjectId;
  code: string;
  slug: string;
  /** The tape's file format (the item's `ext`): the reference layout names this field `kind`. */
  kind: 'zip' | 'mp4';
  totalDuration?: number;
  when: Date;
  user?: string;
  remixOf?: RemixOfField;
}

export interface ChatRecord {
  _id: ObjectId;
  user?: string;
  text: string;
  when: Date;
  deleted?: boolean;
}

export interface HeartRecord {
  _id?: ObjectId;
  user: string;
  type: string;
  for: string;
  when: Date;
}

export interface HandleRecord {
  _id: string;
  handle: string;
}

/** The shared code namespace of KidLisp, pieces and media (docs/contract.md, Codes and URLs). */
export interface CodeRecord {
  _id: string;
  /** The kind of item the code names, stored as `type` (the reference deployment's field name). */
  type: SharedKind;
  /** The kind as records written before the field was renamed `type` hold it; read with codeKindOf. */
  kind?: SharedKind;
  when: Date;
}

/** The kind of item a registered code names, whichever field its record was written with. */
export const codeKindOf = (record: Pick<CodeRecord, 'type' | 'kind'>): SharedKind | undefined =>
  record.type ?? record.kind;

/** Finds registered codes of one kind, old records (`kind`) included. */
export const codesOfKind = (kind: SharedKind) => ({ $or: [{ type: kind }, { kind }] });

export interface ApiTokenRecord {
  _id: string; // SHA-256 hex of the token
  /** The key's public id (`key_...`), what `GET /api/keys` lists and `DELETE /api/keys/<id>` takes; older tokens have none. */
  id?: string;
  account: string;
  /** The handle `token create` named; keys a member makes carry none. */
  handle?: string;
  /** What the member called a key they made. */
  name?: string;
  label?: string;
  prefix: string; // first characters, to recognise a token in `token list`
  /** What the key may do (src/auth/scopes.ts); tokens issued before scopes existed may do all. */
  scopes?: string[];
  created: Date;
  expires?: Date;
  lastUsed?: Date;
  revoked?: Date;
}

/**
 * Who holds a handle given out by `token create` (src/auth/handle-claims.ts): the unique `_id`
 * (the handle) makes two claims for one handle end with one holder; `@handles` then records it.
 */
export interface HandleClaimRecord {
  _id: string;
  account: string;
  when: Date;
}

/** A sign-in under way (src/auth/sign-in.ts): found by its `state`'s hash, taken once, within minutes. */
export interface SignInRecord {
  _id: string;
  verifier: string;
  nonce: string;
  returnTo: string;
  expires: Date;
}

/** A sign-in on the site (src/auth/sessions.ts): the cookie's value is kept only as its SHA-256 hash. */
export interface SessionRecord {
  _id: string;
  account: string;
  created: Date;
  expires: Date;
}

export interface RateLimitRecord {
  _id: string;
  count: number;
  expires: Date;
}

/**
 * One client's hit on one item (docs/contract.md, popularity): the unique `_id`
 * `<kind>:<code>:<client>` lets each client count once per item.
 */
export interface ItemHitRecord {
  _id: string;
  kind: ItemKind;
  code: string;
  client: string;
  when: Date;
}

/**
 * A KidLisp work's stored thumbnail (src/operations/kidlisp/thumbnail-store.ts): `_id` is the
 * work's code; the picture is the storage object `thumbnails/<version>/<key>.png`.
 */
export interface ThumbnailRecord {
  _id: string;
  /** The renderer that drew it (renderer-version.ts); another version's picture is drawn anew. */
  version: string;
  /** The drawing's hash: its source, embeds and paintings. */
  key: string;
  drawnAt: Date;
}

/** Who took a work down: an operator (`work remove`) or its own account (DELETE /api/items/<code>). */
export type RemovedBy = 'operator' | 'author';

/**
 * A work taken down (src/operations/takedowns/take-down.ts): its whole record, moved out of its
 * collection, so no list, search or reader of the shared collections sees it and `work restore`
 * puts it back as it was. `_id` is the work's address (`clock~<code>` for a melody, else the code).
 */
export interface RemovedWorkRecord {
  _id: string;
  kind: ItemKind;
  code: string;
  /** The record as it was in its collection, `_id` included. */
  record: Record<string, unknown>;
  /** The source's dedup hash or the media slug, so the same content is refused again (operator removals). */
  hash?: string;
  slug?: string;
  by: RemovedBy;
  /** The operator's reason (never shown to visitors), or the author's deletion. */
  reason: string;
  /** The account that deleted its own work. */
  account?: string;
  when: Date;
}

/** A visitor's report of a work (the page's Report form); `open` until the work is removed. */
export interface WorkReportRecord {
  _id?: ObjectId;
  /** The reported work's address (`clock~<code>` or the code). */
  address: string;
  kind: ItemKind;
  reason: string;
  details?: string;
  /** Who reported it, for the rate limit: `address:<ip>` or `account:<id>`. */
  client: string;
  when: Date;
  state: 'open' | 'closed';
}
