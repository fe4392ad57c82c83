import { describe, expect, it } from 'vitest';
import { fileQueryOf, readRowsQuery, rowsQueryOf, rowsSearch } from './rows-query';

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

  it('reads the file’s Excel choice and zone, and refuses another value', () => {
    expect(fileQueryOf(get('file?excel=true&tz=JST'))).toEqual({ ok: true, query: { excel: true, tz: 'JST' } });
    const bad = fileQueryOf(get('file?excel=yes'));
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual(['excel']);
  });
});
