import { randomBytes } from 'node:crypto';
import {
  appendToBlock,
  blockCount,
  decodeBlock,
  decodeTail,
  encodeBlock,
  encodeTail,
  firstKeyOf,
  getVarint,
  tailWith,
} from './posting-codec.js';
import { BlockKeys, compareBytes } from './posting-keys.js';
import { atEndOfWrite, type Table } from './tables.js';
import { trigramKey } from './trigrams.js';
import { type DocumentSource, UnfiledDocuments } from './unfiled-documents.js';

/**
 * A trigram index's table (./indexes.ts), as posting lists: for each trigram, the `_id` keys of
 * the documents holding it, in `_id` order, in blocks of up to `block` keys (./posting-codec.ts).
 * Keys of the table (a trigram's UTF-8 never starts with 0xF5 or above, so the kinds never meet):
 *
 * - trigram + the block's first `_id` key: a full block (`block` keys at most). A change
 *   rewrites one block, not the list.
 * - trigram + TAIL: the list's last block, open: its last key is kept before it
 *   (./posting-codec.ts, encodeTail), so new postings (new documents have the newest `_id`s)
 *   are appended without decoding it; once it holds more than `block` keys, the first ones
 *   become full blocks. It also keeps how many postings the list holds, for the planner's
 *   estimates. A trigram any document holds has a tail.
 * - PENDING + `_id` key: the trigrams of that document not yet in its blocks (UTF-8, three
 *   code points each). A write that inserts few documents (or changes one) adds one entry
 *   each here, not one per trigram; one that inserts `directFold` or more folds them into the
 *   blocks at its end instead. Once `pendingDocs` documents wait, they are all folded into the
 *   blocks (each block touched once).
 * - MARK: the trigrams of documents after this `_id` key are read from the collection
 *   (./unfiled-documents.ts). A new document after it writes nothing here, and waits with the
 *   pending ones, as if it had an entry. Only a fold cut short leaves postings of one in the
 *   blocks (what it held then; a rewrite takes out what it loses).
 * - STAMP: an earlier release's record of the pending list's changes; removed at the first
 *   change. The writer now keeps its stamp (and the number of pending documents) in memory:
 *   it is the only one to change this table while it lives, and a write that fails makes the
 *   store load its catalog objects anew (./store.ts), this one included, which count the
 *   pending documents again from the table when they first need to.
 */
/** How many keys a block holds at most, and how many documents wait before a merge. */
export interface PostingSizes {
  block: number;
  /**
   * From this many pending documents on, they are folded into the blocks in the background
   * (./posting-folds.ts), a slice at a time between other commands.
   */
  pendingDocs: number;
  /** A transaction inserting at least this many documents folds them into the blocks itself. */
  directFold: number;
  /** A write that leaves this many pending (the background has not kept up) folds them all itself; 4x `pendingDocs` when absent. */
  mostPending?: number;
}
export const POSTING_SIZES: PostingSizes = { block: 128, pendingDocs: 16_384, directFold: 256 };
/** An index build folds its pending documents itself once this many wait. */
const BUILD_FOLD_DOCS = 4_096;
const STAMP = Buffer.from([0xfe]);
const PENDING = 0xff;
/** After every `_id` key (each starts with a type tag below 0xff: ./keys.ts). */
const TAIL = 0xff;

const pendingKey = (idKey: Buffer) => withPrefix(PENDING_BYTE, idKey);
/** `prefix` then `rest`, in one Buffer. */
function withPrefix(prefix: Buffer, rest: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(prefix.length + rest.length);
  for (let i = 0; i < prefix.length; i++) key[i] = prefix[i] as number;
  for (let i = 0; i < rest.length; i++) key[prefix.length + i] = rest[i] as number;
  return key;
}
const TAIL_BYTE = Buffer.from([TAIL]);
const PENDING_BYTE = Buffer.from([PENDING]);
/** A trigram's tail, from the trigram's key. */
const withTail = (prefix: Buffer) => withPrefix(prefix, TAIL_BYTE);
const blockKey = (trigram: string, first: Buffer) => withPrefix(trigramKey(trigram), first);
const tailKey = (trigram: string) => withTail(trigramKey(trigram));
/** A trigram's keys: its blocks, then its tail. */
const listRange = (trigram: string) => {
  const start = trigramKey(trigram);
  return { start, end: Buffer.concat([start, Buffer.from([TAIL, 0])]) };
};
/** Each stamp differs from every other this process makes, and (by its random start) from others'. */
const STAMP_START = randomBytes(4);
let stamps = 0;

/** A new stamp of the pending list, `pendingDocs` waiting. */
function makeStamp(pendingDocs: number): string {
  const stamp = Buffer.allocUnsafe(12);
  STAMP_START.copy(stamp);
  stamp.writeUInt32BE(++stamps >>> 0, 4);
  stamp.writeUInt32BE(pendingDocs, 8);
  return stamp.toString('latin1');
}

/** How many documents a stamp says are pending. */
const countOf = (stamp: string) => Buffer.from(stamp, 'latin1').readUInt32BE(8);

/** Only ASCII: each trigram is three bytes. */
const isAscii = (bytes: Buffer) => {
  for (const byte of bytes) if (byte >= 0x80) return false;
  return true;
};

/** The trigrams written one after another (three code points each). */
function splitTrigrams(bytes: Buffer): string[] {
  const trigrams: string[] = [];
  if (isAscii(bytes)) {
    for (let at = 0; at + 2 < bytes.length; at += 3)
      trigrams.push(bytes.toString('latin1', at, at + 3));
    return trigrams;
  }
  let trigram = '';
  let chars = 0;
  for (const char of bytes.toString('utf8')) {
    trigram += char;
    if (++chars % 3 === 0) {
      trigrams.push(trigram);
      trigram = '';
    }
  }
  return trigrams;
}

/** Sorted, each key once (most often they come so already). */
function sortedUnique(keys: Buffer[]): Buffer[] {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) {
    const before = keys[i - 1] as Buffer;
    const key = keys[i] as Buffer;
    sorted = compareBytes(before, 0, before.length, key, 0, key.length) < 0;
  }
  if (sorted) return keys;
  keys.sort(Buffer.compare);
  return keys.filter((key, i) => i === 0 || !key.equals(keys[i - 1] as Buffer));
}

/** Two sorted lists as one, each key once. */
function union(a: Buffer[], b: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const order =
      i >= a.length ? 1 : j >= b.length ? -1 : Buffer.compare(a[i] as Buffer, b[j] as Buffer);
    if (order <= 0) out.push(a[i++] as Buffer);
    else out.push(b[j++] as Buffer);
    if (order === 0) j++;
  }
  return out;
}

/** Where `key` is in a sorted list, or -1. */
export function indexOfKey(keys: readonly Buffer[], key: Buffer): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare(keys[middle] as Buffer, key);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * A block as read: its table key, its `_id` keys, whether it is the list's tail, and the `_id`
 * keys it answers for: from `lower` (none: from the start) up to, not including, `upper` (the
 * next block's first key; none: to the end).
 */
export interface Block<Keys = Buffer[]> {
  key: Buffer;
  ids: Keys;
  tail: boolean;
  lower?: Buffer | undefined;
  upper?: Buffer | undefined;
}

/** How a block's stored bytes are read: as a Buffer per key (to rewrite it) or for lookups. */
type Decode<Keys> = (block: Uint8Array) => Keys;

/**
 * The pending list as a reader sees it: for each trigram, the `_id` keys waiting (sorted).
 * The writer keeps it up to date as it writes; a list is only ever appended to in place
 * (a search part-way through one sees a prefix of it stay put), else replaced.
 */
export interface PendingView {
  stamp: string;
  byTrigram: Map<string, Buffer[]>;
  /** No list holds a key after this one (none: the lists are empty). */
  last?: Buffer | undefined;
  /** The last document after the mark (./unfiled-documents.ts) filed in (none: from the mark on). */
  filedTo?: Buffer | undefined;
  /** How many new documents after the mark the writer had taken when it was last brought up to date. */
  taken?: number | undefined;
}

/** The later of two keys. */
const later = (a: Buffer | undefined, b: Buffer) => (a && Buffer.compare(a, b) > 0 ? a : b);

/** Where `key` goes in a sorted list: the first position holding a key not below it. */
export function insertionPoint(keys: readonly Buffer[], key: Buffer): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (Buffer.compare(keys[middle] as Buffer, key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Files `key` in a trigram's pending list: appended in place when it comes last (as new `_id`s
 * mostly do), else in a copy with it at its place (a search part-way through keeps the old list).
 */
function addWaiting(byTrigram: Map<string, Buffer[]>, trigram: string, key: Buffer): void {
  const list = byTrigram.get(trigram);
  if (!list) byTrigram.set(trigram, [key]);
  else if (Buffer.compare(list[list.length - 1] as Buffer, key) < 0) list.push(key);
  else {
    const at = insertionPoint(list, key);
    if (list[at]?.equals(key)) return;
    byTrigram.set(trigram, [...list.slice(0, at), key, ...list.slice(at)]);
  }
}

const isTail = (key: Buffer, trigram: string) =>
  key.length === Buffer.byteLength(trigram) + 1 && key[key.length - 1] === TAIL;

/** A block's keys from its table entry. */
const blockIds = <Keys>(key: Buffer, value: Buffer, trigram: string, decode: Decode<Keys>) =>
  decode(isTail(key, trigram) ? decodeTail(value).block : value);

/**
 * A background fold under way: the documents pending when it began (their pending entries'
 * keys, in order), each trigram's postings among them (read from those entries, not from the
 * readers' view), the trigrams not yet folded and those folded, and the documents written
 * since (their pending entry is no longer the one noted: left to the next fold). `read`: a
 * reader asked for the pending view since the pass began.
 */
interface FoldPass {
  docs: Buffer[];
  /** How many of `docs` are pending entries; the rest came after the mark, up to `lastUnfiled`. */
  explicit: number;
  lastUnfiled: Buffer | undefined;
  /** Documents inserted since it began, after the mark but not after `lastUnfiled`. */
  late: Buffer[];
  byTrigram: Map<string, Buffer[]>;
  left: string[];
  done: Set<string>;
  dropped: Set<string>;
  read: boolean;
}

/** Whether a fold noted this document pending when it began. */
function passHolds(pass: FoldPass, idKey: Buffer): boolean {
  let low = 0;
  let high = pass.docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const key = pass.docs[middle] as Buffer;
    const order = compareBytes(key, 1, key.length, idKey, 0, idKey.length);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * For each ASCII trigram (seven bits a character) met while reading the pending entries, its
 * list's place plus one (0: not met yet); emptied again after each read.
 */
const asciiSlots = new Int32Array(1 << 21);
const asciiTrigram = (code: number) =>
  String.fromCharCode(code >>> 14, (code >>> 7) & 0x7f, code & 0x7f);

/**
 * Each trigram's `_id` keys among the pending entries, in `_id` order (the entries' order), and
 * the entries' keys (each `_id` key is a view of its entry's key). An ASCII trigram is known by
 * its bytes, through `asciiSlots`, not by a string made for each posting.
 */
function readPending(entries: Iterable<{ key: unknown; value: unknown }>): {
  docs: Buffer[];
  byTrigram: Map<string, Buffer[]>;
} {
  const docs: Buffer[] = [];
  const idKeys: Buffer[] = [];
  // Each trigram met gets a list (a slot); first each posting's slot is noted, document after
  // document, then the lists are filled in one go (cheaper than growing them as entries come).
  const trigrams: string[] = [];
  const codes: number[] = [];
  const others = new Map<string, number>();
  let slots = new Int32Array(1 << 16);
  let postings = 0;
  const ends: number[] = [];
  const asciiSlot = (code: number) => {
    const slot = (asciiSlots[code] as number) - 1;
    if (slot >= 0) return slot;
    codes.push(code);
    asciiSlots[code] = trigrams.push(asciiTrigram(code));
    return trigrams.length - 1;
  };
  const slotOf = (trigram: string) => {
    const a = trigram.charCodeAt(0);
    const b = trigram.charCodeAt(1);
    const c = trigram.charCodeAt(2);
    if (trigram.length === 3 && (a | b | c) < 0x80) return asciiSlot((a << 14) | (b << 7) | c);
    let slot = others.get(trigram);
    if (slot === undefined) {
      slot = trigrams.push(trigram) - 1;
      others.set(trigram, slot);
    }
    return slot;
  };
  try {
    for (const { key, value } of entries) {
      const entryKey = Buffer.from(key as Buffer);
      docs.push(entryKey);
      idKeys.push(entryKey.subarray(1));
      const bytes = value as Buffer;
      // A trigram takes three bytes at least.
      if (postings + bytes.length > slots.length) {
        const grown = new Int32Array(2 * (postings + bytes.length));
        grown.set(slots.subarray(0, postings));
        slots = grown;
      }
      if (!isAscii(bytes))
        for (const trigram of splitTrigrams(bytes)) slots[postings++] = slotOf(trigram);
      else
        for (let at = 0; at + 2 < bytes.length; at += 3)
          slots[postings++] = asciiSlot(
            ((bytes[at] as number) << 14) |
              ((bytes[at + 1] as number) << 7) |
              (bytes[at + 2] as number),
          );
      ends.push(postings);
    }
  } finally {
    for (const code of codes) asciiSlots[code] = 0;
  }
  const lists = trigrams.map((): Buffer[] => []);
  let at = 0;
  for (const [doc, idKey] of idKeys.entries())
    for (const end = ends[doc] as number; at < end; at++)
      (lists[slots[at] as number] as Buffer[]).push(idKey);
  const byTrigram = new Map<string, Buffer[]>();
  for (const [slot, trigram] of trigrams.entries()) byTrigram.set(trigram, lists[slot] as Buffer[]);
  return { docs, byTrigram };
}

/** A sorted list without the keys of another (sorted, most often its first ones). */
function without(list: Buffer[], gone: Buffer[]): Buffer[] {
  if (gone.length === 0) return list;
  const last = gone[gone.length - 1] as Buffer;
  if (
    (list[0] as Buffer | undefined)?.equals(gone[0] as Buffer) &&
    list[gone.length - 1]?.equals(last)
  )
    return list.slice(gone.length);
  const out: Buffer[] = [];
  let j = 0;
  for (const key of list) {
    while (j < gone.length && Buffer.compare(gone[j] as Buffer, key) < 0) j++;
    if (j >= gone.length || !(gone[j] as Buffer).equals(key)) out.push(key);
  }
  return out;
}

/** A document's trigrams, filed under its `_id` key. */
interface Waiting {
  idKey: Buffer;
  trigrams: readonly string[];
}

export class TrigramPostings {
  #view: PendingView | undefined;
  /**
   * Documents this writer added to the pending list since the view was last read: filed into
   * it by trigram only when a search reads it, so an insert does not pay for that (and none at
   * all while no reader keeps a view: a fold reads the pending entries themselves).
   */
  #recent: Waiting[] = [];
  /** The background fold under way, if any. */
  #pass: FoldPass | undefined;
  /**
   * Documents the write under way inserted, not yet on disk: at the write's end (or before a
   * search inside it) they are folded into the blocks (many) or written to the pending list (few).
   */
  #unflushed: Waiting[] = [];

  /** The pending list's stamp as this writer left it (none: not counted yet). */
  #current: string | undefined;
  /** An earlier release's STAMP entry is gone from the table. */
  #stampGone = false;
  /** The documents this index reads from its collection (none: an index without one, in tests). */
  readonly #unfiled: UnfiledDocuments | undefined;
  /** How many new documents the write under way stored after the mark. */
  #admitted = 0;
  /** How many new documents after the mark this writer has taken (readers' views catch up to it). */
  #taken = 0;

  constructor(
    readonly table: Table,
    private readonly sizes = POSTING_SIZES,
    source?: DocumentSource,
  ) {
    this.#unfiled = source && new UnfiledDocuments(table, source);
  }

  get #mostPending(): number {
    return this.sizes.mostPending ?? 4 * this.sizes.pendingDocs;
  }

  /** How many documents wait to be folded: pending entries, and documents after the mark. */
  waitingDocs(): number {
    return this.#pendingEntries() + (this.#unfiled?.count() ?? 0);
  }

  #pendingEntries(): number {
    return countOf(this.#storedStamp());
  }

  /**
   * A new document (inside the write that stores it, before it is stored): true when it comes
   * after the mark, so the index has nothing to write for it (./unfiled-documents.ts).
   */
  takesLater(idKey: Buffer): boolean {
    const admitted = this.#unfiled?.admit(idKey);
    if (!admitted) return false;
    this.#taken++;
    const pass = this.#pass;
    // The fold under way moves the mark past it at its end: it gets a pending entry then.
    if (pass?.lastUnfiled && Buffer.compare(idKey, pass.lastUnfiled) <= 0) pass.late.push(idKey);
    // Readers' views file only the documents after their last one: one before it, read anew.
    if (!admitted.appended) this.#stamp(this.#pendingEntries());
    if (this.#admitted++ === 0) atEndOfWrite(() => this.#afterAdmits());
    return true;
  }

  /** A write that inserted many documents folds them into the blocks at its end, as #flush does. */
  #afterAdmits(): void {
    const many = this.#admitted >= this.sizes.directFold;
    this.#admitted = 0;
    if (many) this.merge();
  }

  /**
   * A background fold is under way, or enough documents wait for one (./posting-folds.ts);
   * `any`: any document waiting is enough (the server is idle).
   */
  wantsFold(any = false): boolean {
    if (this.#unflushed.length > 0) return false;
    return this.#pass !== undefined || this.waitingDocs() >= (any ? 1 : this.sizes.pendingDocs);
  }

  // Reads.

  /** The pending list, read again only when another writer changed it since the last read. */
  pending(): PendingView {
    // A search inside the write that inserted documents sees them.
    this.#flush();
    const stamp = this.#storedStamp();
    const pass = this.#pass;
    if (pass) pass.read = true;
    if (this.#view?.stamp === stamp) {
      this.#catchUp(this.#view);
      return this.#settled(this.#view);
    }
    this.#recent = [];
    const view: PendingView = { stamp, byTrigram: new Map() };
    if (this.waitingDocs() > 0) {
      const read = this.#readWaiting();
      view.byTrigram = read.byTrigram;
      view.filedTo = read.lastUnfiled;
      view.taken = this.#taken;
      const last = read.docs[read.docs.length - 1];
      if (last) view.last = last.subarray(1);
      // The trigrams a fold under way has filed hold its documents in their blocks already.
      if (pass)
        for (const trigram of pass.done) {
          const ids = view.byTrigram.get(trigram);
          const rest = ids?.filter((id) => !this.#passFiled(pass, id)) ?? [];
          if (rest.length > 0) view.byTrigram.set(trigram, rest);
          else view.byTrigram.delete(trigram);
        }
    }
    this.#view = view;
    return view;
  }

  /**
   * Files in the view the documents stored after the mark since it was last brought up to date
   * (they come after every document it holds: one stored before its last one changes the stamp).
   */
  #catchUp(view: PendingView): void {
    const unfiled = this.#unfiled;
    // The count after the mark would not do: a fold moving the mark changes it too.
    if (!unfiled || view.taken === this.#taken) return;
    const pass = this.#pass;
    for (const { idKey, trigrams } of unfiled.documents(view.filedTo ?? unfiled.mark)) {
      let list = splitTrigrams(trigrams);
      if (pass && this.#passFiled(pass, idKey)) list = list.filter((t) => !pass.done.has(t));
      this.#recent.push({ idKey, trigrams: list });
      view.filedTo = idKey;
    }
    view.taken = this.#taken;
  }

  /**
   * The pending entries, then the documents after the mark (as if they had entries), read:
   * `explicit` of `docs` are entries, `lastUnfiled` the last document after the mark.
   */
  #readWaiting(): ReturnType<typeof readPending> & { explicit: number; lastUnfiled?: Buffer } {
    let explicit = 0;
    let lastUnfiled: Buffer | undefined;
    const { table } = this;
    const unfiled = this.#unfiled;
    function* entries() {
      for (const entry of table.getRange({ start: PENDING_BYTE })) {
        explicit++;
        yield entry;
      }
      for (const { idKey, trigrams } of unfiled?.documents() ?? []) {
        lastUnfiled = idKey;
        yield { key: pendingKey(idKey), value: trigrams };
      }
    }
    const read = readPending(entries());
    return { ...read, explicit, ...(lastUnfiled && { lastUnfiled }) };
  }

  /** Whether the fold under way files this document's postings (it was not rewritten since it began). */
  #passFiled(pass: FoldPass, idKey: Buffer): boolean {
    return passHolds(pass, idKey) && !pass.dropped.has(idKey.toString('latin1'));
  }

  /** The readers' view settled, when one is kept and current; none is made for a writer's sake. */
  #liveView(): PendingView | undefined {
    const current = this.#currentView(this.#storedStamp());
    return current && this.#settled(current);
  }

  /** The pending list's stamp, made from the table's pending entries when first needed. */
  #storedStamp(): string {
    if (this.#current === undefined)
      this.#current = makeStamp(this.table.getKeysCount({ start: Buffer.from([PENDING]) }));
    return this.#current;
  }

  /**
   * The view kept up to date by this writer, when it is the current one. Only a reader makes
   * one (`pending`): inserts alone file nothing by trigram until a fold reads their entries.
   */
  #currentView(stamp: string): PendingView | undefined {
    if (this.#view?.stamp === stamp) return this.#view;
    this.#view = undefined;
    this.#recent = [];
    return undefined;
  }

  /**
   * The view with the documents added since it was last read filed in. When they all come
   * after every key already there (as new ObjectIds do), they are appended in `_id` order
   * without comparing keys trigram by trigram.
   */
  #settled(view: PendingView): PendingView {
    const recent = this.#recent;
    if (recent.length === 0) return view;
    this.#recent = [];
    const { byTrigram } = view;
    // Concurrent inserts may arrive a little out of order.
    recent.sort((a, b) => Buffer.compare(a.idKey, b.idKey));
    const inOrder = !view.last || Buffer.compare(view.last, (recent[0] as Waiting).idKey) < 0;
    for (const { idKey, trigrams } of recent) {
      for (const trigram of trigrams) {
        const list = inOrder && byTrigram.get(trigram);
        if (list) list.push(idKey);
        else addWaiting(byTrigram, trigram, idKey);
      }
      view.last = later(view.last, idKey);
    }
    return view;
  }

  /** How many documents hold a trigram (blocks and pending list). */
  count(trigram: string): number {
    return this.#storedCount(trigram) + (this.pending().byTrigram.get(trigram)?.length ?? 0);
  }

  /**
   * The block where `idKey` is or would go: the last one starting at or before it (the tail
   * when that one is), else the first one.
   */
  blockFor(trigram: string, idKey: Buffer): Block | undefined {
    return this.#blockAt(trigram, idKey, 0, idKey.length, decodeBlock);
  }

  /** The same block, its keys decoded for lookups (./posting-keys.ts), for the `_id` key in `key` from `start` to `end`. */
  keysFor(
    trigram: string,
    key: Uint8Array,
    start: number,
    end: number,
  ): Block<BlockKeys> | undefined {
    return this.#blockAt(trigram, key, start, end, BlockKeys.decode);
  }

  /**
   * The full block (never the tail) starting last at or before the `_id` key in `key` from
   * `start` to `end`, as stored, with its first key; none when every full block starts after it.
   */
  floorBlock(
    trigram: string,
    key: Uint8Array,
    start: number,
    end: number,
  ): { first: Buffer; block: Buffer } | undefined {
    const prefix = trigramKey(trigram);
    const probe = Buffer.concat([prefix, key.subarray(start, end)]);
    for (const found of this.table.getRange({ start: probe, reverse: true, limit: 1 })) {
      const foundKey = found.key as Buffer;
      if (foundKey.length > prefix.length && foundKey.subarray(0, prefix.length).equals(prefix))
        return {
          first: Buffer.from(foundKey.subarray(prefix.length)),
          block: found.value as Buffer,
        };
    }
    return undefined;
  }

  /** The list's tail as stored: its block, and its first and last keys (the list's last). */
  tailBlock(trigram: string): { first: Buffer; last: Uint8Array; block: Uint8Array } | undefined {
    const value = this.table.getBinary(tailKey(trigram));
    if (!value) return undefined;
    const { last, block } = decodeTail(value);
    const first = firstKeyOf(block);
    return first && { first, last, block };
  }

  /**
   * The first keys of a list's full blocks, in order, read from the table's keys alone (no
   * block's value is copied): each as its table key, the `_id` key from `prefixLength` on.
   * `after`: only those of the blocks after the one starting with that `_id` key.
   */
  *fullBlockKeys(trigram: string, after?: Buffer): Generator<Buffer> {
    const { start, end } = listRange(trigram);
    const from = after ? { start: blockKey(trigram, after), exclusiveStart: true } : { start };
    for (const key of this.table.getKeys({ ...from, end }))
      if (!isTail(key as Buffer, trigram)) yield key as Buffer;
  }

  /**
   * A full block as stored, by its table key (from `fullBlockKeys`): not a copy, valid only
   * until the next read of the table (./posting-keys.ts, KeyCursor.startOnCopy).
   */
  fullBlock(key: Buffer): Buffer | undefined {
    return this.table.getBinaryFast(key);
  }

  #blockAt<Keys>(
    trigram: string,
    key: Uint8Array,
    start: number,
    end: number,
    decode: Decode<Keys>,
  ): Block<Keys> | undefined {
    const prefix = trigramKey(trigram);
    let floorKey: Buffer | undefined;
    let floorValue: Buffer | undefined;
    const probe = Buffer.concat([prefix, key.subarray(start, end)]);
    for (const found of this.table.getRange({ start: probe, reverse: true, limit: 1 })) {
      const foundKey = found.key as Buffer;
      if (foundKey.length > prefix.length && foundKey.subarray(0, prefix.length).equals(prefix)) {
        floorKey = Buffer.from(foundKey);
        floorValue = Buffer.from(found.value as Buffer);
      }
    }
    if (!floorKey || !floorValue) {
      const first = this.#firstBlock(trigram, decode);
      if (first && !first.tail) first.upper = this.#nextFirst(trigram, first.key);
      return first;
    }
    const upper = this.#nextFirst(trigram, floorKey);
    // Past the next block's start: the next one is the tail (the floor is the last full block).
    if (upper && compareBytes(key, start, end, upper, 0, upper.length) >= 0) {
      const tail = this.#tail(trigram, decode);
      if (tail) tail.lower = upper;
      return tail;
    }
    return {
      key: floorKey,
      ids: decode(floorValue),
      tail: false,
      lower: floorKey.subarray(prefix.length),
      upper,
    };
  }

  /** The `_id` keys holding a trigram, in `_id` order or its reverse, each once. */
  *ids(trigram: string, reverse: boolean): Generator<Buffer> {
    const pending = this.pending().byTrigram.get(trigram) ?? [];
    const stored = this.#stored(trigram, reverse);
    const sign = reverse ? -1 : 1;
    let p = reverse ? pending.length - 1 : 0;
    const step = reverse ? -1 : 1;
    let next = stored.next();
    for (;;) {
      const fromPending = pending[p];
      if (next.done && !fromPending) return;
      const order = next.done
        ? 1
        : fromPending
          ? Buffer.compare(next.value, fromPending) * sign
          : -1;
      if (order <= 0) {
        yield next.value as Buffer;
        next = stored.next();
        if (order === 0) p += step;
      } else {
        yield fromPending as Buffer;
        p += step;
      }
    }
  }

  *#stored(trigram: string, reverse: boolean): Generator<Buffer> {
    for (const ids of this.storedBlocks(trigram, reverse, decodeBlock)) {
      if (reverse) ids.reverse();
      yield* ids;
    }
  }

  /** The blocks of a trigram's list (not its pending documents), in `_id` order or its reverse. */
  *storedBlocks<Keys>(trigram: string, reverse: boolean, decode: Decode<Keys>): Generator<Keys> {
    const { start, end } = listRange(trigram);
    const range = reverse ? { start: end, end: start, reverse } : { start, end };
    for (const { key, value } of this.table.getRange(range))
      yield blockIds(key as Buffer, value as Buffer, trigram, decode);
  }

  #storedCount(trigram: string): number {
    // Only its leading count is read, before any other read of the table: no copy of the tail.
    const tail = this.table.getBinaryFast(tailKey(trigram));
    return tail ? getVarint(tail, { offset: 0 }) : 0;
  }

  #tail<Keys>(trigram: string, decode: Decode<Keys>): Block<Keys> | undefined {
    const key = tailKey(trigram);
    const value = this.table.getBinary(key);
    return value && { key, ids: decode(decodeTail(value).block), tail: true };
  }

  #firstBlock<Keys>(trigram: string, decode: Decode<Keys>): Block<Keys> | undefined {
    for (const { key, value } of this.table.getRange({ ...listRange(trigram), limit: 1 })) {
      const found = Buffer.from(key as Buffer);
      return {
        key: found,
        ids: blockIds(found, value as Buffer, trigram, decode),
        tail: isTail(found, trigram),
      };
    }
    return undefined;
  }

  // Writes (inside the store's write transaction).

  /**
   * One document's trigrams change from `before` to `after`: the ones it loses leave their
   * blocks now; the ones it gains wait in the pending list.
   */
  write(before: readonly string[], after: readonly string[], idKey: Buffer, removed = false): void {
    if (this.#unfiled?.holds(idKey)) {
      this.#rewriteUnfiled(before, after, idKey, removed);
      return;
    }
    if (before.length === 0 && after.length > 0 && this.#buffer(after, idKey)) return;
    this.#flush();
    const key = pendingKey(idKey);
    const stamp = this.#storedStamp();
    const current = this.#currentView(stamp);
    const view = current && this.#settled(current);
    let pendingDocs = countOf(stamp);
    let waiting: string[] = [];
    let gained: readonly string[] = after;
    let hadEntry = false;
    if (before.length > 0) {
      // Only trigrams it had can be waiting (a new document has none).
      const stored = this.table.getBinary(key);
      hadEntry = stored !== undefined;
      waiting = stored ? splitTrigrams(stored) : [];
      // Those a background fold has filed already are in the blocks; it leaves the rest to the next.
      const pass = this.#pass;
      const id = idKey.toString('latin1');
      if (pass && passHolds(pass, idKey) && !pass.dropped.has(id)) {
        pass.dropped.add(id);
        waiting = waiting.filter((trigram) => !pass.done.has(trigram));
      }
      const waits = new Set(waiting);
      const inBlocks = new Set(before.filter((trigram) => !waits.has(trigram)));
      const kept = new Set(after);
      // Those it lost leave the blocks, the waiting ones too: a fold cut short (a restart, or
      // a failed write that replaced this writer) may have filed them already.
      for (const trigram of before) if (!kept.has(trigram)) this.#remove(trigram, idKey);
      gained = after.filter((trigram) => !inBlocks.has(trigram));
    }
    if (gained.length === 0 && !hadEntry) return;
    if (gained.length > 0) this.table.putSync(key, Buffer.from(gained.join(''), 'utf8'));
    else this.table.removeSync(key);
    if (!hadEntry) pendingDocs++;
    if (gained.length === 0) pendingDocs--;
    if (view) {
      const { byTrigram } = view;
      for (const trigram of waiting) {
        const ids = (byTrigram.get(trigram) ?? []).filter((id) => !id.equals(idKey));
        if (ids.length > 0) byTrigram.set(trigram, ids);
        else byTrigram.delete(trigram);
      }
      for (const trigram of gained) addWaiting(byTrigram, trigram, idKey);
      if (gained.length > 0) view.last = later(view.last, idKey);
    }
    const written = this.#stamp(pendingDocs);
    if (view) view.stamp = written;
    if (pendingDocs >= this.#mostPending) this.merge();
  }

  /**
   * A document after the mark changed or went. The trigrams it lost leave the blocks: the fold
   * under way, or one cut short (a restart, or a failed write that replaced this writer), may
   * have filed them. So do all those the fold under way filed: it leaves the document to its
   * end, where it gets a pending entry from what it holds then.
   */
  #rewriteUnfiled(
    before: readonly string[],
    after: readonly string[],
    idKey: Buffer,
    removed: boolean,
  ): void {
    const pass = this.#pass;
    const held = pass !== undefined && this.#passFiled(pass, idKey);
    if (held) pass.dropped.add(idKey.toString('latin1'));
    const kept = new Set(after);
    for (const trigram of before)
      if (!kept.has(trigram) || (held && pass.done.has(trigram))) this.#remove(trigram, idKey);
    if (removed) this.#unfiled?.removed();
    // Readers' views may hold what it was: read anew.
    this.#stamp(this.#pendingEntries());
  }

  /** Keeps a new document's trigrams until the write's end; false when no write is under way. */
  #buffer(trigrams: readonly string[], idKey: Buffer): boolean {
    if (this.#unflushed.length === 0 && !atEndOfWrite(() => this.#flush())) return false;
    this.#unflushed.push({ idKey, trigrams });
    return true;
  }

  /** Puts the documents the write inserted on disk: folded into the blocks (many), or pending. */
  #flush(): void {
    const docs = this.#unflushed;
    if (docs.length === 0) return;
    this.#unflushed = [];
    if (docs.length >= this.sizes.directFold) {
      const byTrigram = new Map<string, Buffer[]>();
      for (const { idKey, trigrams } of docs)
        for (const trigram of trigrams) {
          const ids = byTrigram.get(trigram);
          if (ids) ids.push(idKey);
          else byTrigram.set(trigram, [idKey]);
        }
      for (const [trigram, ids] of byTrigram) this.#fold(trigram, sortedUnique(ids));
      return;
    }
    const stamp = this.#storedStamp();
    const view = this.#currentView(stamp);
    for (const { idKey, trigrams } of docs)
      this.table.putSync(pendingKey(idKey), Buffer.from(trigrams.join(''), 'utf8'));
    if (view) this.#recent.push(...docs);
    const pendingDocs = countOf(stamp) + docs.length;
    const written = this.#stamp(pendingDocs);
    if (view) view.stamp = written;
    if (pendingDocs >= this.#mostPending) this.merge();
  }

  /**
   * Adds the postings of these documents (an index build's batch) through the pending list.
   * A document written since the build began already has all of its trigrams in the blocks
   * or the pending list (a write files them all), so one look at its first trigram tells
   * whether it is there: then it is left as it is.
   */
  addDocuments(batch: ReadonlyArray<{ idKey: Buffer; trigrams: readonly string[] }>): void {
    for (const { idKey, trigrams } of batch) {
      const [first] = trigrams;
      if (first === undefined || this.#unfiled?.holds(idKey)) continue;
      if (this.table.doesExist(pendingKey(idKey))) continue;
      const block = this.blockFor(first, idKey);
      if (block && indexOfKey(block.ids, idKey) >= 0) continue;
      this.write([], trigrams, idKey);
    }
    // A build's batches commit outside the background's reach (./posting-folds.ts): folded
    // here, often enough that one fold stays a short pause of the build.
    if (this.waitingDocs() >= Math.min(this.sizes.pendingDocs, BUILD_FOLD_DOCS)) this.merge();
  }

  /**
   * One slice of a background fold (./posting-folds.ts): at first, notes the documents pending
   * now; then folds their postings into the blocks, trigram by trigram, about `postings` of
   * them per slice, each leaving the pending list as the searches see it (a search part-way
   * keeps the one it had); at last, takes those documents off the stored pending list. Returns
   * whether the fold goes on. Cut short (a restart), the pending list on disk still holds them:
   * folding a posting again changes nothing.
   */
  foldSome(postings: number): boolean {
    this.#flush();
    const pass = this.#pass ?? this.#startPass();
    this.#pass = pass;
    // The readers' view, if one is kept, loses the postings filed.
    const view = this.#liveView();
    const byTrigram = view && new Map(view.byTrigram);
    let budget = postings;
    for (let trigram = pass.left.pop(); trigram !== undefined; trigram = pass.left.pop()) {
      pass.done.add(trigram);
      let ids = pass.byTrigram.get(trigram) ?? [];
      if (pass.dropped.size > 0) ids = ids.filter((id) => !pass.dropped.has(id.toString('latin1')));
      if (ids.length > 0) this.#fold(trigram, ids);
      if (byTrigram) {
        const rest = without(byTrigram.get(trigram) ?? [], ids);
        if (rest.length > 0) byTrigram.set(trigram, rest);
        else byTrigram.delete(trigram);
      }
      // A list costs a read and a write of its tail besides its postings.
      budget -= ids.length + 16;
      if (budget <= 0) break;
    }
    if (pass.left.length > 0) {
      if (view && byTrigram) this.#view = { ...view, byTrigram };
      return true;
    }
    let pendingDocs = this.#pendingEntries();
    for (const key of pass.docs.slice(0, pass.explicit))
      if (
        (pass.dropped.size === 0 || !pass.dropped.has(key.toString('latin1', 1))) &&
        this.table.removeSync(key)
      )
        pendingDocs--;
    const entered = this.#fileUnfiled(pass);
    const written = this.#stamp(pendingDocs + entered);
    // A view no reader asked for during the pass is let go: kept, every insert would be filed
    // in it for nobody (a reader makes it again from the entries left).
    if (view && byTrigram && pass.read && entered === 0) {
      const filedTo = pass.lastUnfiled ? later(view.filedTo, pass.lastUnfiled) : view.filedTo;
      this.#view = { ...view, byTrigram, stamp: written, filedTo };
    } else this.#currentView(written);
    this.#pass = undefined;
    return false;
  }

  /**
   * At a pass's end, the mark moves past the documents it read after the mark. Those it did
   * not file (changed, removed or inserted since it began) get a pending entry from what they
   * hold now; returns how many.
   */
  #fileUnfiled(pass: FoldPass): number {
    const unfiled = this.#unfiled;
    if (!unfiled || !pass.lastUnfiled) return 0;
    const left = [...pass.late];
    for (const id of pass.dropped) {
      const idKey = Buffer.from(id, 'latin1');
      if (unfiled.holds(idKey)) left.push(idKey);
    }
    let entered = 0;
    for (const idKey of left) {
      const trigrams = unfiled.trigramsOf(idKey);
      if (!trigrams || trigrams.length === 0) continue;
      this.table.putSync(pendingKey(idKey), trigrams);
      entered++;
    }
    unfiled.filedUpTo(pass.lastUnfiled);
    return entered;
  }

  #startPass(): FoldPass {
    const { docs, byTrigram, explicit, lastUnfiled } = this.#readWaiting();
    // Folded in the table's order (popped from the end), so that neighbouring lists, often on
    // one page, are rewritten by the same slice.
    const left = [...byTrigram.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const done = new Set<string>();
    return {
      docs,
      byTrigram,
      left,
      done,
      dropped: new Set(),
      read: false,
      explicit,
      lastUnfiled,
      late: [],
    };
  }

  /** Folds every document waiting into the blocks, empties the pending list and moves the mark. */
  merge(): void {
    this.#flush();
    const { docs, byTrigram, explicit, lastUnfiled } = this.#readWaiting();
    for (const key of docs.slice(0, explicit)) this.table.removeSync(key);
    for (const [trigram, ids] of byTrigram) this.#fold(trigram, ids);
    if (lastUnfiled) this.#unfiled?.filedUpTo(lastUnfiled);
    const written = this.#stamp(0);
    if (this.#view) this.#view = { stamp: written, byTrigram: new Map() };
    this.#recent = [];
    this.#pass = undefined;
  }

  /** Marks the pending list changed (`pendingDocs` waiting now); returns the new stamp. */
  #stamp(pendingDocs: number): string {
    if (!this.#stampGone) {
      this.table.removeSync(STAMP);
      this.#stampGone = true;
    }
    this.#current = makeStamp(pendingDocs);
    return this.#current;
  }

  /**
   * Writes a sorted list (from `start` on) in place of a block: as full blocks, each under its
   * first key; for a tail (`count`: the list's postings), its last `block` keys at most stay the tail.
   */
  #putBlocks(trigram: string, ids: Buffer[], count?: number, start = 0): void {
    const size = this.sizes.block;
    const n = ids.length - start;
    const sealed = start + (count === undefined ? n : Math.floor((n - 1) / size) * size);
    const prefix = trigramKey(trigram);
    for (let at = start; at < sealed; at += size)
      this.table.putSync(
        withPrefix(prefix, ids[at] as Buffer),
        encodeBlock(ids, at, Math.min(at + size, sealed)),
      );
    if (count !== undefined && ids.length > sealed)
      this.table.putSync(withTail(prefix), tailWith(count, ids, sealed, ids.length));
  }

  /** Writes the list's count into its tail. */
  #setCount(trigram: string, count: number): void {
    const key = tailKey(trigram);
    const tail = decodeTail(this.table.getBinary(key) as Buffer);
    if (tail.count !== count) this.table.putSync(key, encodeTail({ ...tail, count }));
  }

  /** The first key of the block after a full one (stored under `blockKey`; maybe the tail's), if any. */
  #nextFirst(trigram: string, blockKey: Buffer): Buffer | undefined {
    const { end } = listRange(trigram);
    const after = { start: blockKey, end, exclusiveStart: true, limit: 1 };
    for (const key of this.table.getKeys(after)) {
      const found = key as Buffer;
      if (!isTail(found, trigram)) return Buffer.from(found.subarray(Buffer.byteLength(trigram)));
      const tail = this.table.getBinary(found);
      return tail && firstKeyOf(decodeTail(tail).block);
    }
    return undefined;
  }

  /**
   * Adds sorted, distinct `_id` keys to a trigram's list. Those after the tail's last key (new
   * documents') are appended to it; any other is merged into the block where it goes, each
   * block touched rewritten once.
   */
  #fold(trigram: string, ids: Buffer[]): void {
    const key = tailKey(trigram);
    const stored = this.table.getBinary(key);
    if (!stored) {
      this.#putBlocks(trigram, ids, ids.length);
      return;
    }
    let tail = decodeTail(stored);
    const { last } = tail;
    // The first key after the list's last one: those from it on are appended.
    let from = ids.length;
    for (let low = 0; low < from; ) {
      const middle = (low + from) >>> 1;
      const id = ids[middle] as Buffer;
      if (compareBytes(id, 0, id.length, last, 0, last.length) > 0) from = middle;
      else low = middle + 1;
    }
    let count = tail.count;
    if (from > 0) {
      count += this.#mergeInto(trigram, ids.slice(0, from), count);
      if (from === ids.length) {
        this.#setCount(trigram, count);
        return;
      }
      tail = decodeTail(this.table.getBinary(key) as Buffer);
    }
    count += ids.length - from;
    // The tail filled up to a full block, sealed under its first key; the rest after it, in
    // full blocks then a tail: as if the tail's keys and these were written anew, without
    // decoding the tail.
    const fits = this.sizes.block - blockCount(tail.block);
    if (ids.length - from <= fits) {
      this.table.putSync(key, tailWith(count, ids, from, ids.length, tail));
      return;
    }
    const first = firstKeyOf(tail.block) as Buffer;
    this.table.putSync(
      blockKey(trigram, first),
      appendToBlock(tail.block, tail.last, ids, from, from + fits),
    );
    this.#putBlocks(trigram, ids, count, from + fits);
  }

  /**
   * Merges sorted `_id` keys into the blocks where they go (a list that has a tail, which
   * keeps `count` meanwhile); returns how many were new.
   */
  #mergeInto(trigram: string, ids: Buffer[], count: number): number {
    let added = 0;
    let i = 0;
    while (i < ids.length) {
      const block = this.blockFor(trigram, ids[i] as Buffer) as Block;
      const { upper } = block;
      let j = i;
      while (j < ids.length && (!upper || Buffer.compare(ids[j] as Buffer, upper) < 0)) j++;
      const merged = union(block.ids, ids.slice(i, j));
      added += merged.length - block.ids.length;
      if (merged.length !== block.ids.length) {
        if (!block.tail) this.table.removeSync(block.key);
        this.#putBlocks(trigram, merged, block.tail ? count : undefined);
      }
      i = j;
    }
    return added;
  }

  #remove(trigram: string, idKey: Buffer): void {
    const block = this.blockFor(trigram, idKey);
    const at = block ? indexOfKey(block.ids, idKey) : -1;
    if (!block || at < 0) return;
    block.ids.splice(at, 1);
    const count = this.#storedCount(trigram) - 1;
    if (!block.tail) {
      this.table.removeSync(block.key);
      if (block.ids.length > 0) this.#putBlocks(trigram, block.ids);
      this.#setCount(trigram, count);
      return;
    }
    if (block.ids.length > 0) {
      this.#putBlocks(trigram, block.ids, count);
      return;
    }
    // The tail emptied: the last full block, if any, becomes the tail.
    this.table.removeSync(block.key);
    const { start } = listRange(trigram);
    const before = { start: block.key, end: start, reverse: true, exclusiveStart: true, limit: 1 };
    for (const { key, value } of this.table.getRange(before)) {
      this.table.removeSync(Buffer.from(key as Buffer));
      this.#putBlocks(trigram, decodeBlock(value as Buffer), count);
    }
  }
}
