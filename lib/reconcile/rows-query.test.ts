import { describe, expect, it } from 'vitest';
import { ProblemError } from '../http/problem';
import { fileQueryOf, rowsQueryOf } from './route-readers';
import { readRowsQuery, rowsSearch } from './rows-query';

const get = (path: string) => new Request(`http://localhost/api/reconciliations/r1/${path}`);

describe('the rows and file parameters', () => {
  it('reads back what the page writes', () => {
    const view = { outcome: 'matched' as const, status: 'UNDELIV', page: 3 };
    const read = rowsQueryOf(get(`rows${rowsSearch(view)}`));
    expect(read).toEqual({ ok: true, query: { ...view, pageSize: 100, tz: null } });
    expect(rowsSearch({ outcome: null, status: null, page: 1 })).toBe('');
  });

  it('names a misspelt or wrong parameter instead of showing every row', () => {
    const read = readRowsQuery(new URLSearchParams('outcom=matched&page=0&status=LOST'));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(Object.keys(read.errors).sort()).toEqual(['outcom', 'page', 'status']);
  });

  it('reads the file’s Excel choice and zone, and refuses another value with a 400 naming it', () => {
    expect(fileQueryOf(get('file?excel=true&tz=JST'))).toEqual({ ok: true, query: { excel: true, tz: 'JST' } });
    let thrown: unknown;
    try {
      fileQueryOf(get('file?excel=yes'));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).spec.status).toBe(400);
    expect(Object.keys((thrown as ProblemError).spec.errors ?? {})).toEqual(['excel']);
  });
});
