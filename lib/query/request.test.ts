import { describe, expect, it } from 'vitest';
import { said } from '@/tests/support/said';
import { searchQuery as reader } from './request';

const searchQuery =
  (...args: Parameters<typeof reader>) =>
  async (...req: Parameters<ReturnType<typeof reader>>) =>
    said(await reader(...args)(...req));

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
});
