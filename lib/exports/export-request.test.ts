import { describe, expect, it } from 'vitest';
import { ALL_COLUMNS } from '../csv/csv-format';
import { wallClocks } from '../query/query';
import { said } from '@/tests/support/said';
import { translate } from '../i18n/translate';
import { freezeRange, parseExportRequest as parse } from './export-request';

const parseExportRequest = (...args: Parameters<typeof parse>) => said(parse(...args));

const base = { 'date-from': '2026-01-01 00:00:00', 'date-to': '2026-01-08 00:00:00' };

describe('parseExportRequest', () => {
  it('reads the query with the upstream names, all columns by default', () => {
    const r = parseExportRequest({ ...base, tz: 'JST', 'sort-order': 'asc', status: 'DELIVRD' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.request.query.tz).toBe('JST');
    expect(r.request.query.sortOrder).toBe('asc');
    expect(r.request.query.filters).toEqual({ status: 'DELIVRD' });
    expect(r.request.query.from.toISOString()).toBe('2025-12-31T15:00:00.000Z');
    expect(r.request.columns).toEqual([...ALL_COLUMNS]);
    expect(r.request.dryRun).toBe(false);
  });

  it('refuses a key it does not know, `__proto__` included (a plain object of errors lost that one)', () => {
    const r = parseExportRequest(
      JSON.parse(`{"date-from":"2026-01-01 00:00:00","date-to":"2026-01-08 00:00:00","__proto__":{"x":1}}`),
    );
    expect(r.ok === false && Object.keys(r.errors)).toEqual(['__proto__']);
  });

  it('takes excel, true or false (the file for Excel: lib/csv/csv-format.ts)', () => {
    const r = parseExportRequest({ ...base, excel: true });
    expect(r.ok && r.request.excel).toBe(true);
    expect(parseExportRequest(base)).toMatchObject({ ok: true, request: { excel: false } });
    expect(parseExportRequest({ ...base, excel: 'yes' })).toMatchObject({
      ok: false,
      errors: { excel: 'excel must be true or false.' },
    });
  });

  it('takes columns as an array or a comma-separated string, and dryRun', () => {
    const a = parseExportRequest({ ...base, columns: ['trx_id', 'to_address'], dryRun: true });
    const b = parseExportRequest({ ...base, columns: 'trx_id,to_address' });
    expect(a.ok && a.request.columns).toEqual(['trx_id', 'to_address']);
    expect(a.ok && a.request.dryRun).toBe(true);
    expect(b.ok && b.request.columns).toEqual(['trx_id', 'to_address']);
  });

  it('lifts the upstream 31-day limit up to 366 days', () => {
    const r = parseExportRequest({ 'date-from': '2026-01-01 00:00:00', 'date-to': '2026-04-01 00:00:00' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.request.query.to.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    const tooLong = parseExportRequest({ 'date-from': '2025-01-01 00:00:00', 'date-to': '2026-01-03 00:00:00' });
    expect(tooLong).toEqual({ ok: false, errors: { 'date-to': expect.stringContaining('366 days') } });
  });

  it('still checks everything else of a long range', () => {
    const r = parseExportRequest({
      'date-from': '2026-01-01 00:00:00',
      'date-to': '2026-04-01 00:00:00',
      status: 'NOPE',
      tz: 'UTC',
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors)).toEqual(['status']);
  });

  it('reports each broken rule against its key', () => {
    const r = parseExportRequest({
      'date-from': '2026-01-08 00:00:00',
      'date-to': '2026-01-01 00:00:00',
      columns: ['nope'],
      dryRun: 'yes',
      dateFrom: 'x',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['columns', 'date-to', 'dateFrom', 'dryRun']);
  });

  it('requires both dates and a JSON object', () => {
    expect(parseExportRequest({})).toMatchObject({
      ok: false,
      errors: { 'date-from': expect.any(String), 'date-to': expect.any(String) },
    });
    expect(parseExportRequest([1])).toMatchObject({ ok: false, errors: { body: expect.any(String) } });
    expect(parseExportRequest({ ...base, columns: [] })).toMatchObject({
      ok: false,
      errors: { columns: expect.any(String) },
    });
  });

  it('takes "all" for every column, the first thing a script writer tries', () => {
    const r = parseExportRequest({ ...base, columns: 'all' });
    expect(r.ok && r.request.columns).toEqual([...ALL_COLUMNS]);
  });

  it('ignores page and page-size: an export reads every page', () => {
    const r = parseExportRequest({ ...base, page: 7, 'page-size': 10 });
    expect(r.ok).toBe(true);
  });
});

describe('freezeRange', () => {
  const parsed = (dateTo: string) => {
    const r = parseExportRequest({ 'date-from': '2026-01-01 00:00:00', 'date-to': dateTo, tz: 'JST' });
    if (!r.ok) throw new Error('bad fixture');
    return r.request.query;
  };
  const now = Date.parse('2026-01-05T03:04:05.678Z');

  it('keeps a range that ended', () => {
    const r = freezeRange(parsed('2026-01-05 12:00:00'), now);
    expect(r.ok && r.frozen.requestedTo).toBeNull();
  });

  it('ends a range that runs into the future now, to the second, in the query zone', () => {
    const r = freezeRange(parsed('2026-01-10 00:00:00'), now);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frozen.query.to.toISOString()).toBe('2026-01-05T03:04:05.000Z');
    expect(wallClocks(r.frozen.query).dateTo).toBe('2026-01-05 12:04:05');
    expect(r.frozen.requestedTo?.toISOString()).toBe('2026-01-09T15:00:00.000Z');
  });

  it('refuses a range that has not started', () => {
    const q = parsed('2026-01-10 00:00:00');
    const frozen = freezeRange(q, Date.parse('2025-12-01T00:00:00Z'));
    expect(frozen.ok === false && translate('en', frozen.error)).toContain('future');
  });
});
