import type { Db, IndexDescription } from 'mongodb';
import type { Logger } from '../logger.js';
import { collectionNames as names } from './collections.js';

const sourceIndexes = (prefix: string): IndexDescription[] => [
  { key: { code: 1 }, name: `${prefix}_code_unique`, unique: true },
  { key: { hash: 1 }, name: `${prefix}_hash_unique`, unique: true },
  { key: { when: 1 }, name: `${prefix}_when` },
  { key: { user: 1 }, name: `${prefix}_user`, sparse: true },
  ...readIndexes(prefix),
];

/**
 * What the read side pages on (src/operations/items/): newest first, most hits first, and an
 * author's works newest first, each ending in `_id` so a cursor position is exact.
 */
const readIndexes = (prefix: string): IndexDescription[] => [
  { key: { when: -1, _id: -1 }, name: `${prefix}_when_id` },
  { key: { hits: -1, when: -1, _id: -1 }, name: `${prefix}_hits_when_id` },
  { key: { user: 1, when: -1, _id: -1 }, name: `${prefix}_user_when_id` },
  remixesIndex(prefix),
];

/** A work's remixes newest first (src/operations/lineage/); only remixes are in it. */
const remixesIndex = (prefix: string): IndexDescription => ({
  key: { 'remixOf.code': 1, 'remixOf.kind': 1, when: -1, _id: -1 },
  name: `${prefix}_remixof_when_id`,
  partialFilterExpression: { 'remixOf.code': { $exists: true } },
});

/**
 * Chat pages walk `(when, _id)`; `from=@handle` pages walk one user's messages in that order.
 * The chat collections belong to the live chat servers: CHAT_INDEXES=false leaves them alone.
 */
const chatIndexes: IndexDescription[] = [
  { key: { when: -1, _id: -1 }, name: 'chat_when_id' },
  { key: { user: 1, when: -1, _id: -1 }, name: 'chat_user_when_id' },
];
const chatCollections = new Set<string>([names.chatSystem, names.chatClock]);

/**
 * The embedded server's own trigram indexes (src/db/embedded/trigrams.ts), which make a `$regex`
 * search read only the documents holding the pattern's trigrams: the chat's message text and
 * the published works' text. A real MongoDB refuses this index kind, and there a search stays
 * a scan: they are created only on the embedded default.
 */
const trigram = (field: string, name: string): IndexDescription => ({
  key: { [field]: 'trigram' } as unknown as IndexDescription['key'],
  name,
});
const trigramPlan: Record<string, IndexDescription[]> = {
  [names.kidlisp]: [trigram('source', 'kidlisp_source_trigram')],
  [names.clocks]: [trigram('source', 'clock_source_trigram')],
  [names.pieces]: [
    trigram('name', 'pieces_name_trigram'),
    trigram('source', 'pieces_source_trigram'),
    trigram('slug', 'pieces_slug_trigram'),
  ],
  [names.paintings]: [trigram('slug', 'paintings_slug_trigram')],
  [names.tapes]: [trigram('slug', 'tapes_slug_trigram')],
  [names.chatSystem]: [trigram('text', 'chat_text_trigram')],
  [names.chatClock]: [trigram('text', 'chat_text_trigram')],
};

/** Every index the service relies on. Created once at start-up, never per request. */
const indexPlan: Record<string, IndexDescription[]> = {
  [names.kidlisp]: [
    ...sourceIndexes('kidlisp'),
    { key: { hits: -1, when: -1 }, name: 'kidlisp_hits_when' },
  ],
  [names.clocks]: sourceIndexes('clock'),
  // item-hits needs no index of its own: its unique `_id` (`<kind>:<code>:<client>`) decides.
  [names.pieces]: [
    { key: { code: 1 }, name: 'pieces_code_unique', unique: true },
    // Media records carry no hash, so uniqueness applies to the records that have one.
    {
      key: { hash: 1 },
      name: 'pieces_hash_unique',
      unique: true,
      partialFilterExpression: { hash: { $exists: true } },
    },
    {
      key: { slug: 1 },
      name: 'pieces_slug_unique',
      unique: true,
      partialFilterExpression: { slug: { $exists: true } },
    },
    { key: { when: 1 }, name: 'pieces_when' },
    { key: { user: 1 }, name: 'pieces_user', sparse: true },
    ...readIndexes('pieces'),
  ],
  [names.paintings]: [
    { key: { code: 1 }, name: 'paintings_code_unique', unique: true },
    {
      key: { slug: 1 },
      name: 'paintings_slug_unique',
      unique: true,
      partialFilterExpression: { slug: { $exists: true } },
    },
    ...readIndexes('paintings'),
  ],
  [names.tapes]: [
    { key: { code: 1 }, name: 'tapes_code_unique', unique: true },
    {
      key: { slug: 1 },
      name: 'tapes_slug_unique',
      unique: true,
      partialFilterExpression: { slug: { $exists: true } },
    },
    ...readIndexes('tapes'),
  ],
  [names.chatSystem]: chatIndexes,
  [names.chatClock]: chatIndexes,
  [names.hearts]: [{ key: { type: 1, for: 1 }, name: 'hearts_type_for' }],
  // `from=@handle` on chat reads looks an account up by its handle.
  [names.handles]: [{ key: { handle: 1 }, name: 'handles_handle' }],
  [names.apiTokens]: [
    { key: { account: 1 }, name: 'api_tokens_account' },
    { key: { handle: 1, created: 1 }, name: 'api_tokens_handle' },
    {
      key: { id: 1 },
      name: 'api_tokens_id',
      unique: true,
      partialFilterExpression: { id: { $exists: true } },
    },
  ],
  [names.rateLimits]: [{ key: { expires: 1 }, name: 'rate_limits_expires', expireAfterSeconds: 0 }],
  // A publish asks whether its content was taken down (src/operations/takedowns/refuse.ts).
  [names.removedWorks]: [
    { key: { hash: 1 }, name: 'removed_works_hash', sparse: true },
    { key: { slug: 1 }, name: 'removed_works_slug', sparse: true },
  ],
  [names.workReports]: [{ key: { state: 1, address: 1 }, name: 'work_reports_state_address' }],
  // Sign-ins on the site (src/auth/sessions.ts) end by themselves.
  [names.sessions]: [{ key: { expires: 1 }, name: 'sessions_expires', expireAfterSeconds: 0 }],
  [names.signIns]: [{ key: { expires: 1 }, name: 'sign_ins_expires', expireAfterSeconds: 0 }],
};

/**
 * Creates the plan's indexes. An existing database may already hold an index of the same key
 * under another name or options, or rows that break a uniqueness the plan adds (old duplicate
 * media slugs); that is reported and left alone rather than stopping start-up.
 */
export async function ensureIndexes(
  db: Db,
  logger: Logger,
  { chatIndexes = true, embedded = false }: { chatIndexes?: boolean; embedded?: boolean } = {},
): Promise<void> {
  const plan = Object.entries(indexPlan)
    .map(([collection, indexes]): [string, IndexDescription[]] => [
      collection,
      [...indexes, ...(embedded ? (trigramPlan[collection] ?? []) : [])],
    ])
    .filter(([collection]) => chatIndexes || !chatCollections.has(collection));
  await Promise.all(
    plan.map(async ([collection, indexes]) => {
      try {
        // The embedded server builds an index over existing documents in the background, and
        // is told not to wait for it here (src/db/embedded/index-build.ts): start-up goes on.
        if (embedded)
          await db.command({ createIndexes: collection, indexes, buildInBackground: true });
        else await db.collection(collection).createIndexes(indexes);
      } catch (error) {
        const code = (error as { code?: number }).code;
        // 85 IndexOptionsConflict, 86 IndexKeySpecsConflict, 11000 existing duplicates.
        if (code === 85 || code === 86 || code === 11000) {
          logger.warn(
            { collection, err: error },
            'an existing index differs from the plan; keeping it',
          );
          return;
        }
        throw error;
      }
    }),
  );
}
