import type { ItemFacts } from '../operations/items/item-facts.js';
import type { WorksSearchAnswer } from '../operations/items/works-search-answer.js';
import type { KidlispPreview } from '../operations/kidlisp/preview-kidlisp.js';
import type { KidlispRender } from '../operations/kidlisp/render-kidlisp.js';
import type { KidlispExample } from '../operations/kidlisp/top-kidlisp.js';
import type { PublishResult } from '../operations/publish/index.js';

export type {
  ItemFacts,
  KidlispExample,
  KidlispPreview,
  KidlispRender,
  PublishResult,
  WorksSearchAnswer,
};

/** How many of the most recent works `code` completes from. */
export const RECENT_FOR_COMPLETION = 100;

/** The code of the work a publish was remixed from, if any. */
export interface Remix {
  remixOf?: string | undefined;
}

/** Cancellation of the MCP request that asked for the work. */
export interface Call {
  signal: AbortSignal;
}

/**
 * What the assistant tools need from the service. Inputs are the tool arguments as received;
 * each implementation validates them with the operation's own schema (in-process) or lets the
 * service do it (HTTP), so failures carry the service's machine code either way.
 */
export interface AssistantBackend {
  publishKidlisp(input: { source: string } & Remix, call: Call): Promise<PublishResult>;
  publishClock(input: { source: string } & Remix, call: Call): Promise<PublishResult>;
  publishPiece(
    input: { source: string; name?: string | undefined } & Remix,
    call: Call,
  ): Promise<PublishResult>;
  previewKidlisp(input: { source: string }, call: Call): Promise<KidlispPreview>;
  apiInfo(call: Call): Promise<Record<string, unknown>>;
  topKidlisp(limit: number, call: Call): Promise<KidlispExample[]>;
  /** A published item by code (`clock~<code>` for a melody); fails with ITEM_NOT_FOUND. */
  getItem(input: { code: string }, call: Call): Promise<ItemFacts>;
  /** A page of the works search (`GET /api/items`), in its REST names (`search` for the term). */
  searchWorks(input: WorksSearchQuery, call: Call): Promise<WorksSearchAnswer>;
  /** render_kidlisp: the tool's arguments as received; the service validates them. */
  renderKidlisp(input: Record<string, unknown>, call: Call): Promise<KidlispRender>;
  /** The addresses of the most recent works, newest first (completion of `service://items/{code}`). */
  recentAddresses(call: Call): Promise<string[]>;
  /** A painting's PNG by its code; null when there is none. */
  paintingPng(code: string, call: Call): Promise<Buffer | null>;
}

export interface WorksSearchQuery {
  search: string;
  kind?: string | undefined;
  handle?: string | undefined;
  sort?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A failure with the service's machine code and message (the REST body's `code` and `message`). */
export class ServiceError extends Error {
  override name = 'ServiceError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
