/** A Relay connection: edges in list order and where the page sits in the list. */
export interface Connection<N, Extra = unknown> {
  edges: ({ cursor: string; node: N } & Extra)[];
  pageInfo: {
    hasPreviousPage: boolean;
    hasNextPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/**
 * One Relay page. `read(limit)` reads from the end the page starts at: in list order when
 * `forward`, else from the far end backwards. It is asked for one row more than `size`, which
 * tells whether the page has a neighbour that way; edges come back in list order.
 */
export async function relayPage<R, N, Extra = unknown>(
  paging: { size: number; forward: boolean; after: unknown; before: unknown },
  read: (limit: number) => Promise<R[]>,
  edgeOf: (row: R) => { cursor: string; node: N } & Extra,
): Promise<Connection<N, Extra>> {
  const { size, forward } = paging;
  const rows = await read(size + 1);
  const more = rows.length > size;
  const page = rows.slice(0, size);
  const edges = (forward ? page : page.reverse()).map(edgeOf);
  return {
    edges,
    pageInfo: {
      hasPreviousPage: forward ? paging.after !== undefined : more,
      hasNextPage: forward ? more : paging.before !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
