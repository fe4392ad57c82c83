/**
 * The query codec's round trip, over many queries made at random (seeded: a failure names its seed
 * and case, and comes back the same): every form a query takes reads back as the query it was
 * written from — the URL (the page's and the API's), the JSON body, the stored job, the search
 * form's draft and the upstream's wire form — in both zones, with every filter.
 */
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../cdr/fields';
import { ZONES } from '../time/zones';
import { DAY_MS } from '../time/units';
import { checkDraft, draftOfQuery, draftOfUrl } from './draft';
import { FILTERS, filterProblem, UPSTREAM_FILTERS, type FilterParam, type Filters } from './filters';
import { readPageUrl, urlValuesOf } from './page-url';
import {
  EXPORT_MAX_RANGE_DAYS,
  MAX_PAGE,
  PAGE_SIZES,
  parseQuery,
  queryBody,
  queryParams,
  SEARCH_MAX_RANGE_DAYS,
  selectionOfBody,
  SORT_ORDERS,
  type QuerySelection,
  type TransactionsQuery,
} from './query';
import { requestedEndOf, selectionOf, storedQueryOf } from './stored';
import { baseOf, upstreamBase } from './wire';

const SEED = 20261207;
const CASES = 400;

/** mulberry32: a small, good-enough PRNG, so a failing case can be made again from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const text = (alphabet: string, min: number, max: number) => {
    const chars = [...alphabet];
    return Array.from({ length: int(min, max) }, () => pick(chars)).join('');
  };
  return { next, int, pick, text };
}
type Random = ReturnType<typeof prng>;

const DIGITS = '0123456789';
const KEY_LIKE = 'abcXYZ0129._-';
/** What a person types into a text filter: Japanese, half-width kana, symbols the URL must escape. */
const FREE = 'abcXYZ 019-._+&#=%?/:配達サクラｻｸﾗ㈱（）';
const SENDER = 'abcXYZ 019._+-サクラ';

/** A trimmed, non-empty value from `make`. */
function trimmed(make: () => string): string {
  for (;;) {
    const v = make().trim();
    if (v !== '') return v;
  }
}

/** A value each filter accepts, written as the parser writes it (so it reads back unchanged). */
const VALUES: Record<FilterParam, (r: Random) => string> = {
  da: (r) => `${r.pick(['81', '44', '1'])}${r.text(DIGITS, 6, 12)}`,
  'da-suffix': (r) => r.text(DIGITS, 1, 15),
  oa: (r) => trimmed(() => r.text(SENDER, 1, 20)),
  status: (r) => r.pick(['DELIVRD', 'UNDELIV', 'REJECTD', 'EXPIRED']),
  'client-reference': (r) => trimmed(() => r.text(FREE, 1, 40)),
  'api-key': (r) => r.text(KEY_LIKE, 1, 30),
  'enterprise-id': (r) => r.text(KEY_LIKE, 1, 30),
  network: (r) => r.pick(['44010', '44050', '44020', '44011']),
  q: (r) => trimmed(() => r.text(FREE, 2, 30)).padEnd(2, 'x'),
  'id-text': (r) => trimmed(() => r.text(FREE, 2, 30)).padEnd(2, 'x'),
  'delivery-method': (r) => r.pick(['API', 'Dashboard', 'Campaign']),
  parts: (r) => String(r.int(1, 999)),
  'price-min': (r) => `${r.int(0, 99)}${r.next() < 0.5 ? `.${r.text(DIGITS, 1, 8)}` : ''}`,
  'price-max': (r) => `${r.int(100, 9999)}${r.next() < 0.5 ? `.${r.text(DIGITS, 1, 8)}` : ''}`,
  'api-key-name': (r) => trimmed(() => r.text(FREE, 1, 40)),
  'dlr-error-code': (r) => r.text('abcXYZ0129', 1, 10),
  'latency-min': (r) => r.text(DIGITS, 1, 7),
};

/** Now, for the parser's "not in the future": the ranges made all lie before it. */
const NOW = Date.UTC(2026, 11, 1);
const EARLIEST = Date.UTC(2020, 0, 1);

function randomSelection(r: Random, maxDays: number, every = false): QuerySelection {
  const from = Math.floor(r.int(EARLIEST, NOW - (maxDays + 1) * DAY_MS) / 1000) * 1000;
  const to = from + r.int(1, maxDays * 86_400) * 1000;
  const filters: Filters = {};
  for (const f of FILTERS) if (every || r.next() < 0.3) filters[f.param] = VALUES[f.param](r);
  return {
    from: new Date(from),
    to: new Date(to),
    tz: r.pick(ZONES),
    sort: r.pick(FIELDS).key,
    sortOrder: r.pick(SORT_ORDERS),
    filters,
  };
}

function randomQuery(r: Random, every = false): TransactionsQuery {
  return {
    ...randomSelection(r, SEARCH_MAX_RANGE_DAYS, every),
    page: r.next() < 0.3 ? 1 : r.int(1, MAX_PAGE),
    pageSize: r.pick(PAGE_SIZES),
  };
}

/** Each query of the run, once in each zone (the same instants), the first ones with every filter. */
function* queries(): Generator<[string, TransactionsQuery]> {
  const r = prng(SEED);
  for (let i = 0; i < CASES; i++) {
    const q = randomQuery(r, i < 20);
    for (const tz of ZONES) yield [`seed ${SEED}, case ${i}, ${tz}`, { ...q, tz }];
  }
}

const read = (result: ReturnType<typeof parseQuery>, name: string): TransactionsQuery => {
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.errors)}`);
  return result.query;
};

describe('the query codec', () => {
  it('makes its random queries from every filter, each value one the parser accepts', () => {
    expect(Object.keys(VALUES).sort()).toEqual(FILTERS.map((f) => f.param).sort());
    const r = prng(SEED);
    for (const f of FILTERS)
      for (let i = 0; i < 50; i++) {
        const v = VALUES[f.param](r);
        expect(filterProblem(f, v), `${f.param}=${v}`).toBeNull();
      }
  });

  it('reads the URL it writes as the same query (the API’s and the page’s)', () => {
    for (const [name, q] of queries()) {
      expect(read(parseQuery(queryParams(q), { now: NOW }), name), name).toEqual(q);
      const row = 'a'.repeat(32);
      const page = readPageUrl(urlValuesOf(q, row));
      expect(page.search.kind === 'ready' && page.search.query, name).toEqual(q);
      expect(page.row, name).toBe(row);
      expect(page.settings, name).toEqual({ tz: q.tz, sort: q.sort, sortOrder: q.sortOrder, pageSize: q.pageSize });
    }
  });

  it('reads the JSON body it writes as the same query, a search’s and an export’s', () => {
    for (const [name, q] of queries()) expect(read(parseQuery(queryBody(q), { now: NOW }), name), name).toEqual(q);
    const r = prng(SEED + 1);
    for (let i = 0; i < CASES; i++) {
      const selection = randomSelection(r, EXPORT_MAX_RANGE_DAYS);
      expect(selectionOfBody(queryBody(selection)), `case ${i}`).toEqual(selection);
    }
  });

  it('reads the stored job it writes (kept as JSON) as the same query, and the end it was asked for', () => {
    const r = prng(SEED + 2);
    for (let i = 0; i < CASES; i++) {
      const selection = randomSelection(r, EXPORT_MAX_RANGE_DAYS);
      const requested = r.next() < 0.5 ? null : new Date(selection.to.getTime() + r.int(1, 10 * 86_400) * 1000);
      const stored = JSON.parse(JSON.stringify(storedQueryOf(selection, requested)));
      expect(selectionOf(stored), `case ${i}`).toEqual(selection);
      expect(requestedEndOf(stored), `case ${i}`).toEqual(requested);
    }
  });

  it('reads the search form’s draft it writes as the same query, on page 1', () => {
    for (const [name, q] of queries()) {
      const settings = { tz: q.tz, sort: q.sort, sortOrder: q.sortOrder, pageSize: q.pageSize };
      expect(read(checkDraft(draftOfQuery(q), settings), name), name).toEqual({ ...q, page: 1 });
      // The draft a page URL gives is the query's own.
      expect(draftOfUrl(urlValuesOf(q), { dateFrom: '', dateTo: '' }), name).toEqual(draftOfQuery(q));
    }
  });

  it('reads the upstream’s wire form it writes as the same range, filters and key', () => {
    const upstream = new Set<string>(UPSTREAM_FILTERS.map((f) => f.param));
    for (const [name, q] of queries()) {
      const base = upstreamBase(q, { enterpriseId: 'ent-account', pageSize: 100 });
      const back = baseOf(base.params);
      expect([back.from, back.to, back.key], name).toEqual([q.from.getTime(), q.to.getTime(), base.key]);
      expect(back.filters, name).toEqual(base.filters);
      const sent = Object.fromEntries(Object.entries(q.filters).filter(([p]) => upstream.has(p)));
      expect(base.filters, name).toEqual({ 'enterprise-id': 'ent-account', ...sent });
    }
  });
});
