import { describe, expect, it } from 'vitest';
import { said } from '@/tests/support/said';
import { FILTERS, UPSTREAM_FILTERS } from './filters';
import {
  EXPORT_MAX_RANGE_DAYS,
  parseQuery as parse,
  queryBody,
  queryKey,
  queryParams,
  wallClocks,
  type TransactionsQuery,
} from './query';

/** The parser, its words said in English (and in Japanese where a test asks). */
const parseQuery = (...args: Parameters<typeof parse>) => said(parse(...args));

const RANGE = { 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-08 00:00:00' };

function ok(input: Parameters<typeof parseQuery>[0], options?: Parameters<typeof parseQuery>[1]): TransactionsQuery {
  const r = parseQuery(input, options);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

describe('parseQuery', () => {
  it('reads a URL with the upstream’s names and the seed’s defaults where it is silent', () => {
    const q = ok(new URLSearchParams(RANGE));
    expect(q).toMatchObject({
      tz: 'UTC',
      sortOrder: 'desc',
      sort: 'date_received',
      page: 1,
      pageSize: 25,
      filters: {},
    });
    expect(q.from.toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('reads the range in the query’s zone, any case', () => {
    const q = ok(new URLSearchParams({ ...RANGE, tz: 'jst' }));
    expect(q.tz).toBe('JST');
    expect(q.from.toISOString()).toBe('2026-10-31T15:00:00.000Z');
    expect(wallClocks(q)).toEqual({ dateFrom: '2026-11-01 00:00:00', dateTo: '2026-11-08 00:00:00' });
  });

  it('reads a JSON body the same way, numbers included', () => {
    const fromJson = ok({ ...RANGE, page: 3, 'page-size': 50, status: 'DELIVRD' });
    const fromUrl = ok(new URLSearchParams({ ...RANGE, page: '3', 'page-size': '50', status: 'DELIVRD' }));
    expect(fromJson).toEqual(fromUrl);
  });

  it('names every broken rule by parameter, and says what a valid value looks like', () => {
    const r = parseQuery({
      'date-from': '2026-02-30 00:00:00',
      'date-to': 'soon',
      tz: 'PST',
      'sort-order': 'up',
      page: '0',
      'page-size': '30',
      da: '12ab',
      status: 'SENT',
      sort: 'nope',
      network: 7,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(
      ['da', 'date-from', 'date-to', 'network', 'page', 'page-size', 'sort', 'sort-order', 'status', 'tz'].sort(),
    );
    expect(r.errors.da).toMatch(/6 to 15 digits/);
    expect(r.errors.status).toMatch(/DELIVRD/);
    expect(r.errors['page-size']).toBe('page-size must be one of 10, 25, 50, 100; got "30".');
    // The same rules in Japanese: the parameter's name and the value typed stay as they were.
    const ja = said(parse({ ...RANGE, 'page-size': '30', da: '12ab' }), 'ja');
    expect(ja.ok === false && ja.errors['page-size']).toBe(
      'page-size は 10, 25, 50, 100 のいずれかで指定してください(指定値:「30」)。',
    );
    expect(ja.ok === false && ja.errors.da).toMatch(/^宛先番号の値が正しくありません。正しい形式:6〜15桁の電話番号/);
    for (const size of ['200', '0', 'abc']) {
      const bad = parseQuery({ ...RANGE, 'page-size': size });
      expect(bad.ok === false && bad.errors['page-size']).toBe(
        `page-size must be one of 10, 25, 50, 100; got "${size}".`,
      );
    }
    const method = parseQuery({ ...RANGE, 'delivery-method': 'api' });
    expect(method.ok === false && method.errors['delivery-method']).toMatch(/one of API, Dashboard, Campaign/);
  });

  it('refuses, in the API’s URLs, a parameter it does not know and one given twice, naming the one meant', () => {
    const url = (extra: string) =>
      new URLSearchParams(`date-from=2026-11-01+00:00:00&date-to=2026-11-02+00:00:00&${extra}`);
    const misspelt = parseQuery(url('stauts=DELIVRD'), { alsoAllowed: [] });
    expect(misspelt.ok === false && misspelt.errors).toEqual({
      stauts: 'Unknown parameter "stauts": did you mean "status"?',
    });
    const unknown = parseQuery(url('colour=red'), { alsoAllowed: [] });
    expect(unknown.ok === false && unknown.errors.colour).toBe(
      'Unknown parameter "colour": the parameters are listed in the README (Dashboard API).',
    );
    // A name too short to be a misspelling is not given a guess; one that sets a prototype is still refused.
    const short = parseQuery(url('%E2%9C%93=1'), { alsoAllowed: [] });
    expect(short.ok === false && short.errors['✓']).toBe(
      'Unknown parameter "✓": the parameters are listed in the README (Dashboard API).',
    );
    const proto = parseQuery(url('__proto__=1'), { alsoAllowed: [] });
    expect(proto.ok === false && Object.keys(proto.errors)).toEqual(['__proto__']);
    const twice = parseQuery(url('status=DELIVRD&status=REJECTD'), { alsoAllowed: [] });
    expect(twice.ok === false && twice.errors.status).toBe('status is given 2 times; give it once.');
    // What the caller reads itself is allowed; the dashboard's own page URLs are read as before.
    expect(parseQuery(url('columns=trx_id'), { alsoAllowed: ['columns'] }).ok).toBe(true);
    expect(parseQuery(url('row=3')).ok).toBe(true);
  });

  it('refuses a JSON value that is not text or a number', () => {
    const r = parseQuery({ ...RANGE, oa: { $ne: '' } });
    expect(r.ok === false && r.errors.oa).toBe('oa must be a string.');
  });

  it('holds a search to 31 days and an export to 366', () => {
    const long = { 'date-from': '2026-01-01 00:00:00', 'date-to': '2026-03-01 00:00:00' };
    expect(parseQuery(long)).toMatchObject({ ok: false, errors: { 'date-to': expect.stringContaining('31 days') } });
    expect(parseQuery(long, { maxRangeDays: EXPORT_MAX_RANGE_DAYS }).ok).toBe(true);
    expect(parseQuery({ 'date-from': '2026-01-01 00:00:00', 'date-to': '2026-02-01 00:00:00' }).ok).toBe(true);
    expect(parseQuery({ 'date-from': '2026-01-01 00:00:00', 'date-to': '2026-02-01 00:00:01' }).ok).toBe(false);
  });

  it('refuses a range no record can be in: one that starts in the future, or before 1970', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const future = parseQuery({ 'date-from': '2027-10-01 00:00:00', 'date-to': '2027-10-02 00:00:00' }, { now });
    expect(future).toEqual({
      ok: false,
      errors: {
        'date-from':
          'date-from 2027-10-01 00:00:00 UTC is in the future: no message has been received then yet. Choose a start before now.',
      },
    });
    const ancient = parseQuery({ 'date-from': '0050-01-01 00:00:00', 'date-to': '0050-01-02 00:00:00' }, { now });
    expect(ancient).toEqual({
      ok: false,
      errors: { 'date-from': 'date-from must be in 1970 or later; got "0050-01-01 00:00:00".' },
    });
    // A range that ends later today (the "today" preset) is a search of what has come so far; a start
    // a minute ahead of this clock is another clock's now.
    expect(parseQuery({ 'date-from': '2026-11-27 00:00:00', 'date-to': '2026-11-27 23:59:59' }, { now }).ok).toBe(true);
    expect(
      parseQuery({ 'date-from': '2026-11-27 21:01:00', 'date-to': '2026-11-27 22:00:00', tz: 'JST' }, { now }).ok,
    ).toBe(true);
  });

  it('says what a value must be when it is too long, not only its length', () => {
    expect(parseQuery({ ...RANGE, status: 'DELIVERED' })).toMatchObject({
      ok: false,
      errors: {
        status: expect.stringMatching(/^Status is too long \(at most 7 characters\): it must be one of DELIVRD, /),
      },
    });
  });

  it('refuses a price range that ends below its start', () => {
    expect(parseQuery({ ...RANGE, 'price-min': '5', 'price-max': '3.3' })).toMatchObject({
      ok: false,
      errors: { 'price-max': expect.any(String) },
    });
  });

  it('writes a pasted phone number as the records do: digits, country code first', () => {
    expect(ok({ ...RANGE, da: ' +81 90-1234-5678 ', 'da-suffix': '56-78' }).filters).toEqual({
      da: '819012345678',
      'da-suffix': '5678',
    });
    expect(parseQuery({ ...RANGE, da: '+81 (90) 1234 abc' })).toMatchObject({
      ok: false,
      errors: { da: expect.stringContaining('6 to 15 digits') },
    });
    // The other ways a number is written: the trunk 0 in brackets, the international prefix, and
    // the domestic form (a Japanese platform: a leading 0 is the trunk prefix of country code 81).
    for (const typed of ['+81 (0)90-1234-5678', '0081 90 1234 5678', '090-1234-5678', '09012345678']) {
      expect(ok({ ...RANGE, da: typed }).filters.da, typed).toBe('819012345678');
    }
    expect(ok({ ...RANGE, da: '03-1234-5678' }).filters.da).toBe('81312345678');
    // Already with a country code, or too short to be a domestic number: as typed.
    expect(ok({ ...RANGE, da: '447700900123' }).filters.da).toBe('447700900123');
    expect(ok({ ...RANGE, da: '0123456' }).filters.da).toBe('0123456');
    // The last digits are only digits: no country code is added to them.
    expect(ok({ ...RANGE, 'da-suffix': '0-5678' }).filters['da-suffix']).toBe('05678');
  });

  it('reads numbers typed on a Japanese keyboard (full-width, any dash) as the numbers they show', () => {
    expect(
      ok({
        ...RANGE,
        da: '０９０－１２３４－５６７８',
        'da-suffix': '５６７８',
        network: '４４０１０',
        'price-min': '３．５',
      }).filters,
    ).toEqual({
      da: '819012345678',
      'da-suffix': '5678',
      network: '44010',
      'price-min': '3.5',
    });
    expect(ok({ ...RANGE, da: '090ー1234‐5678' }).filters.da).toBe('819012345678');
    // Text filters the upstream matches exactly are sent as typed.
    expect(ok({ ...RANGE, oa: 'ｻｸﾗ' }).filters.oa).toBe('ｻｸﾗ');
  });

  it('keeps a session signed in for one enterprise to it; one signed in for none may pick any', () => {
    const other = parseQuery({ ...RANGE, 'enterprise-id': 'ent-fuji' }, { sessionEnterpriseId: 'ent-sakura' });
    expect(other).toMatchObject({
      ok: false,
      errors: { 'enterprise-id': expect.stringMatching(/signed in for enterprise "ent-sakura"/) },
    });
    expect(
      ok({ ...RANGE, 'enterprise-id': 'ent-sakura' }, { sessionEnterpriseId: 'ent-sakura' }).filters['enterprise-id'],
    ).toBe('ent-sakura');
    expect(ok({ ...RANGE, 'enterprise-id': 'ent-fuji' }, { sessionEnterpriseId: null }).filters['enterprise-id']).toBe(
      'ent-fuji',
    );
  });
});

describe('writing the query', () => {
  it('writes one canonical string, whatever the order and case it was read in', () => {
    const a = ok(new URLSearchParams({ status: 'DELIVRD', ...RANGE, tz: 'utc', 'sort-order': 'DESC' }));
    const b = ok({ 'date-to': RANGE['date-to'], 'date-from': RANGE['date-from'], status: 'DELIVRD', page: 1 });
    expect(queryKey(a)).toBe(queryKey(b));
    expect(queryKey(a)).toBe(
      'date-from=2026-11-01+00%3A00%3A00&date-to=2026-11-08+00%3A00%3A00&status=DELIVRD&tz=UTC&sort-order=desc&page-size=25&page=1',
    );
  });

  it('round-trips every filter through the URL and the JSON body', () => {
    const values: Record<string, string> = {
      da: '819012345678',
      'da-suffix': '5678',
      oa: 'SakuraMart',
      status: 'DELIVRD',
      'delivery-method': 'API',
      parts: '2',
      'price-min': '1',
      'price-max': '3.3',
      'client-reference': 'ORD-1',
      'api-key': 'demo',
      'api-key-name': 'Web shop',
      'enterprise-id': 'ent-sakura',
      network: '44010',
      'dlr-error-code': '27',
      q: '配達',
      'id-text': 'ORD-2026',
      'latency-min': '30',
    };
    expect(Object.keys(values).sort()).toEqual(FILTERS.map((f) => f.param).sort());
    const q = ok({ ...RANGE, ...values, sort: 'price', 'sort-order': 'asc', tz: 'JST' });
    expect(ok(queryParams(q))).toEqual(q);
    expect(ok(queryBody(q))).toEqual({ ...q, page: 1, pageSize: 25 });
  });

  it('counts free text as it is searched: ㈱ is the three characters of (株), one letter is too short', () => {
    expect(ok({ ...RANGE, q: '㈱' }).filters.q).toBe('㈱');
    for (const short of ['a', 'ｱ', 'Ａ']) {
      const r = parseQuery({ ...RANGE, q: short });
      expect(r.ok ? null : r.errors.q, short).toMatch(/at least 2 characters/);
    }
  });

  it('writes `sort` only when it is not the upstream’s order', () => {
    expect(queryParams(ok(RANGE)).has('sort')).toBe(false);
    expect(queryParams(ok({ ...RANGE, sort: 'price' })).get('sort')).toBe('price');
  });
});

describe('the upstream’s filters', () => {
  it('are those the Report API takes (what only the local history can answer: lib/search/planner.ts)', () => {
    expect(UPSTREAM_FILTERS.map((f) => f.param).sort()).toEqual([
      'api-key',
      'client-reference',
      'da',
      'enterprise-id',
      'network',
      'oa',
      'status',
    ]);
  });
});
