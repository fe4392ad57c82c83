import { describe, expect, it } from 'vitest';
import { recordQuery, searchQuery } from './request';

const ACCOUNT = { enterpriseId: 'ent-sakura' };
const RANGE = 'date-from=2026-11-01+00%3A00%3A00&date-to=2026-11-02+00%3A00%3A00';
const get = (search: string) => new Request(`http://dashboard.test/api/x?${search}`);

describe('a route’s query reader', () => {
  it('reads the search query of a URL for the signed-in session, the route’s own parameters allowed', async () => {
    const read = await searchQuery(['columns'])(get(`${RANGE}&columns=trx_id&status=DELIVRD`), ACCOUNT);
    expect(read.ok && read.query.filters).toEqual({ status: 'DELIVRD' });
    expect(await searchQuery()(get(`${RANGE}&columns=trx_id`), ACCOUNT)).toMatchObject({
      ok: false,
      errors: { columns: expect.stringContaining('Unknown parameter') },
    });
    // Another enterprise than the session's: refused before anything is spent.
    expect(await searchQuery()(get(`${RANGE}&enterprise-id=ent-fuji`), ACCOUNT)).toMatchObject({
      ok: false,
      errors: { 'enterprise-id': expect.stringContaining('ent-sakura') },
    });
  });

  it('reads a record’s id as the records write it and its zone, naming what is wrong', async () => {
    const id = '0123456789ABCDEF0123456789ABCDEF';
    const params = (trxId: string) => ({ params: Promise.resolve({ trxId }) });
    expect(await recordQuery(get('tz=jst'), ACCOUNT, null, params(id))).toEqual({
      ok: true,
      query: { trxId: id.toLowerCase(), tz: 'JST' },
    });
    const wrong = await recordQuery(get('tz=PST&tz=UTC&foo=1'), ACCOUNT, null, params('nope'));
    expect(wrong.ok === false && Object.keys(wrong.errors).sort()).toEqual(['foo', 'trx_id', 'tz']);
  });
});
