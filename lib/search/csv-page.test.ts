import { describe, expect, it } from 'vitest';
import { ProblemError } from '../http/problem';
import { parseQuery } from '../query/query';
import type { TransactionsPage } from './api';
import { csvPageResponse, csvRequest, wantsCsv } from './csv-page';

const asking = (accept?: string) =>
  new Request('http://dashboard.test/api/transactions', { headers: accept ? { Accept: accept } : {} });

describe('which answer a request asks for', () => {
  it('is CSV when the Accept header prefers it, by its weights', () => {
    expect(wantsCsv(asking('text/csv'))).toBe(true);
    expect(wantsCsv(asking('text/csv;q=0.9, */*;q=0.1'))).toBe(true);
    expect(wantsCsv(asking('application/json;q=1, text/csv;q=0'))).toBe(false);
    expect(wantsCsv(asking('text/csv;q=0.5, application/json'))).toBe(false);
    expect(wantsCsv(asking('*/*'))).toBe(false);
    expect(wantsCsv(asking())).toBe(false);
  });

  it('refuses columns and excel on a JSON answer instead of ignoring them', () => {
    expect(csvRequest(asking('text/csv'), 'trx_id,price')).toEqual({ columns: ['trx_id', 'price'], excel: false });
    expect(csvRequest(asking('text/csv'), null, 'true')).toMatchObject({ excel: true });
    expect(() => csvRequest(asking('text/csv'), null, 'yes')).toThrow(ProblemError);
    expect(csvRequest(asking('application/json'), null)).toBeNull();
    expect(() => csvRequest(asking('application/json'), 'trx_id')).toThrow(ProblemError);
    expect(() => csvRequest(asking('application/json'), null, 'true')).toThrow(ProblemError);
  });
});

describe('a page CSV of a query in Japanese', () => {
  it('answers, its name whole in filename* and ASCII in filename (it was a 500, after the call was spent)', async () => {
    const parsed = parseQuery(
      new URLSearchParams({
        'date-from': '2026-11-18 00:00:00',
        'date-to': '2026-11-19 00:00:00',
        tz: 'JST',
        'client-reference': '注文',
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const page = { _embedded: { cdrs: [], total_found: 0 }, _meta: { calls: 1 } } as unknown as TransactionsPage;
    const res = csvPageResponse(page, parsed.query, { columns: ['trx_id'], excel: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="sms_2026-11-18T0000_2026-11-19T0000_JST_client-reference-___p1.csv"; filename*=UTF-8''sms_2026-11-18T0000_2026-11-19T0000_JST_client-reference-%E6%B3%A8%E6%96%87_p1.csv`,
    );
    expect(new Uint8Array(await res.arrayBuffer()).subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });
});
