import { type Scope, scopesOf } from '../../auth/scopes.js';
import type { ApiTokenRecord } from '../../db/collections.js';

/** A key as its member sees it: never its secret. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  created: string;
  expires: string | null;
  lastUsed: string | null;
}

/** Tokens issued before keys had ids are named by their prefix, which `DELETE /api/keys/<id>` takes too. */
export const keyIdOf = (record: Pick<ApiTokenRecord, 'id' | 'prefix'>) =>
  record.id ?? record.prefix;

export function keyView(record: ApiTokenRecord): KeyView {
  return {
    id: keyIdOf(record),
    name: record.name ?? record.label ?? (record.handle ? `@${record.handle}` : 'key'),
    prefix: record.prefix,
    scopes: scopesOf(record.scopes),
    created: record.created.toISOString(),
    expires: record.expires?.toISOString() ?? null,
    lastUsed: record.lastUsed?.toISOString() ?? null,
  };
}
