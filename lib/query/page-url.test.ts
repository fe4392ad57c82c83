import { describe, expect, it } from 'vitest';
import {
  inPageUrlOrder,
  pageHoldingFirstRow,
  pageHref,
  queryOfApiHref,
  ROW_PARAM,
  pageSettingsOf,
  searchStateOf,
  urlValuesOf,
  zoneOf,
} from './page-url';

describe('the page URL as search state', () => {
  it('is idle without a range: nothing is searched on load', () => {
    expect(searchStateOf({ tz: 'JST' })).toEqual({ kind: 'idle' });
  });

  it('is invalid when the server would refuse it, with the reason per parameter', () => {
    const state = searchStateOf({ 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-11-20 00:00:00', da: 'abc' });
    expect(state.kind).toBe('invalid');
    if (state.kind === 'invalid') {
      expect(Object.keys(state.errors).sort()).toEqual(['da', 'date-to']);
    }
  });

  it('is ready with a canonical key, whatever the order and case of the parameters', () => {
    const a = searchStateOf({
      status: 'DELIVRD',
      'date-to': '2026-11-20 00:00:00',
      'date-from': '2026-11-19 00:00:00',
      tz: 'jst',
    });
    const b = searchStateOf({
      'date-from': '2026-11-19 00:00:00',
      'date-to': '2026-11-20 00:00:00',
      status: 'DELIVRD',
      tz: 'JST',
      page: '1',
    });
    expect(a.kind).toBe('ready');
    expect(a.kind === 'ready' && b.kind === 'ready' && a.key === b.key).toBe(true);
    if (a.kind === 'ready') {
      expect(a.key).toBe(
        'date-from=2026-11-19+00%3A00%3A00&date-to=2026-11-20+00%3A00%3A00&status=DELIVRD&tz=JST&sort-order=desc&page-size=25&page=1',
      );
    }
  });

  it('reads the zone, falling back to UTC', () => {
    expect(zoneOf({ tz: 'jst' })).toBe('JST');
    expect(zoneOf({ tz: 'PST' })).toBe('UTC');
    expect(zoneOf({})).toBe('UTC');
    // A bare page opens in the zone the person picked; a URL with a range is read as the API reads it.
    expect(zoneOf({}, 'JST')).toBe('JST');
    expect(zoneOf({ 'date-from': '2026-11-01 00:00:00' }, 'JST')).toBe('UTC');
    expect(zoneOf({ tz: 'UTC' }, 'JST')).toBe('UTC');
    expect(pageSettingsOf({}, 'JST').tz).toBe('JST');
  });

  it('names every parameter when writing a query, so old filters do not linger, and closes the row', () => {
    const state = searchStateOf({ 'date-from': '2026-11-19 00:00:00', 'date-to': '2026-11-20 00:00:00' });
    if (state.kind !== 'ready') throw new Error('expected ready');
    const values = urlValuesOf(state.query);
    expect(values.status).toBeNull();
    expect(values.oa).toBeNull();
    expect(values[ROW_PARAM]).toBeNull();
    expect(values.page).toBe('1');
  });
});

/** What the pagination does with a link of the API's answer. */
function pageHrefOfApiHref(href: string): string | null {
  const query = queryOfApiHref(href);
  return query ? pageHref(query) : null;
}

describe('pagination links', () => {
  const apiHref =
    '/api/transactions?date-from=2026-11-19+00%3A00%3A00&date-to=2026-11-20+00%3A00%3A00&page=3&page-size=50' +
    '&enterprise-id=ent-sakura&sort-order=asc&tz=JST&status=DELIVRD&oa=SAKURA';

  it('maps an API link to the page URL with the whole query', () => {
    expect(pageHrefOfApiHref(apiHref)).toBe(
      '/transactions?date-from=2026-11-19+00%3A00%3A00&date-to=2026-11-20+00%3A00%3A00&oa=SAKURA&status=DELIVRD' +
        '&enterprise-id=ent-sakura&tz=JST&sort-order=asc&page-size=50&page=3',
    );
  });

  it('accepts absolute links and reads their query', () => {
    expect(queryOfApiHref(`http://localhost:3000${apiHref}`)?.page).toBe(3);
  });

  it('refuses a link this page cannot show', () => {
    expect(pageHrefOfApiHref('/api/transactions?page=2')).toBeNull();
  });
});

describe('search settings from the URL', () => {
  it('reads zone, sort and size, with defaults for anything unreadable', () => {
    expect(pageSettingsOf({ tz: 'JST', 'sort-order': 'ASC', 'page-size': '100' })).toEqual({
      tz: 'JST',
      sort: 'date_received',
      sortOrder: 'asc',
      pageSize: 100,
    });
    expect(pageSettingsOf({ 'sort-order': 'sideways', 'page-size': '30' })).toEqual({
      tz: 'UTC',
      sort: 'date_received',
      sortOrder: 'desc',
      pageSize: 25,
    });
  });
});

describe('changing the page size', () => {
  it('goes to the page that holds the first row on screen', () => {
    expect(pageHoldingFirstRow(1, 25, 100)).toBe(1);
    expect(pageHoldingFirstRow(3, 25, 100)).toBe(1); // rows 51–75
    expect(pageHoldingFirstRow(5, 25, 100)).toBe(2); // rows 101–125
    expect(pageHoldingFirstRow(2, 100, 10)).toBe(11); // row 101
    expect(pageHoldingFirstRow(900, 100, 10)).toBe(1000); // past the last page there is: the last
  });
});

describe('the order of a page URL', () => {
  it('is the codec’s, whatever order the parameters were written in, others last', () => {
    const written = new URLSearchParams(
      'date-from=2026-11-19+00%3A00%3A00&page-size=100&tz=UTC&date-to=2026-11-20+00%3A00%3A00&x=1&sort-order=desc&page=1&row=a&status=DELIVRD',
    );
    expect(inPageUrlOrder(written).toString()).toBe(
      'date-from=2026-11-19+00%3A00%3A00&date-to=2026-11-20+00%3A00%3A00&status=DELIVRD&tz=UTC&sort-order=desc&page-size=100&page=1&row=a&x=1',
    );
  });
});
