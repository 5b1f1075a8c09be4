import { describe, expect, it } from 'vitest';
import { publish, useSeededApp } from './fixtures.js';

const fixture = useSeededApp();
const codesOf = (body: Record<string, any>) =>
  body.items.map((item: { code: string }) => item.code);

describe('one shape for the REST lists: {items, pageInfo}', () => {
  it('pages GET /api/items with after=endCursor and before=startCursor, as the remixes list', async () => {
    const { http } = fixture;
    const parent = await publish(http, '/api/store-kidlisp', { source: '(wipe 0) ; shape parent' });
    for (const n of [1, 2, 3])
      await publish(http, '/api/store-kidlisp', { source: `(wipe ${n}) ; shape`, remixOf: parent });

    const first = (await http.get('/api/items?search=shape&sort=recent&limit=2')).json;
    expect(Object.keys(first.pageInfo).sort()).toEqual([
      'endCursor',
      'hasNextPage',
      'hasPreviousPage',
      'startCursor',
    ]);
    expect(first.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const second = (
      await http.get(
        `/api/items?search=shape&sort=recent&limit=2&after=${first.pageInfo.endCursor}`,
      )
    ).json;
    expect(second.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect([...codesOf(first), ...codesOf(second)]).toHaveLength(4);
    const back = (
      await http.get(
        `/api/items?search=shape&sort=recent&limit=2&before=${second.pageInfo.startCursor}`,
      )
    ).json;
    expect(codesOf(back)).toEqual(codesOf(first));

    // The remixes list answers the same shape, and its cursors page it the same way.
    const remixes = (await http.get(`/api/items/${parent}/remixes?limit=2`)).json;
    expect(Object.keys(remixes).sort()).toEqual(['items', 'pageInfo']);
    expect(Object.keys(remixes.pageInfo).sort()).toEqual(Object.keys(first.pageInfo).sort());
  });

  it('keeps count, nextCursor and previousCursor (and ?cursor=) as the deprecated alias until 1.3', async () => {
    const { http } = fixture;
    const first = (await http.get('/api/items?sort=recent&limit=2')).json;
    expect(first.count).toBe(first.items.length);
    const byAlias = (await http.get(`/api/items?sort=recent&limit=2&cursor=${first.nextCursor}`))
      .json;
    const byAfter = (
      await http.get(`/api/items?sort=recent&limit=2&after=${first.pageInfo.endCursor}`)
    ).json;
    expect(codesOf(byAlias)).toEqual(codesOf(byAfter));
    expect(byAlias.previousCursor).not.toBeNull();
    const wrongSort = await http.get(`/api/items?sort=hits&after=${first.pageInfo.endCursor}`);
    expect(wrongSort.status).toBe(400);
    expect(wrongSort.json.code).toBe('CURSOR_INVALID');
  });
});
