import { describe, expect, it } from 'vitest';
import { ProblemError } from '../http/problem';
import { csvRequest, wantsCsv } from './csv-page';

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
