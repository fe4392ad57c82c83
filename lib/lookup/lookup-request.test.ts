import { describe, expect, it } from 'vitest';
import { lookupRequest } from './lookup-request';

const get = (search: string) => new Request(`http://dashboard.test/api/transactions/x?${search}`);
const path = (trxId: string) => ({ params: Promise.resolve({ trxId }) });

describe('the record route’s reader', () => {
  it('reads a record’s id as the records write it and its zone, naming what is wrong', async () => {
    const id = '0123456789ABCDEF0123456789ABCDEF';
    expect(await lookupRequest(get('tz=jst'), null, null, path(id))).toEqual({
      ok: true,
      query: { trxId: id.toLowerCase(), tz: 'JST' },
    });
    const wrong = await lookupRequest(get('tz=PST&tz=UTC&foo=1'), null, null, path('nope'));
    expect(wrong.ok === false && Object.keys(wrong.errors).sort()).toEqual(['foo', 'trx_id', 'tz']);
  });
});
