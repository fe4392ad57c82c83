/**
 * The page URL hook, rendered as the server renders it (no browser needed) under nuqs's testing
 * adapter: what it reads of a URL, the draft beside it, and each URL it writes — a whole query,
 * written by the codec, or the open row alone.
 */
import { NuqsTestingAdapter, type UrlUpdateEvent } from 'nuqs/adapters/testing';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { WallRange } from '../query/draft';
import { useSearchUrl, type SearchUrl } from './use-search-url';

const RANGE = 'date-from=2026-11-19+00%3A00%3A00&date-to=2026-11-20+00%3A00%3A00';
const OFFERED: WallRange = { dateFrom: '2026-11-26 00:00:00', dateTo: '2026-11-27 00:00:00' };

/** A query string as its parameters (in name order: where nuqs puts a parameter is its own business). */
const params = (search: string) => [...new URLSearchParams(search)].sort(([a], [b]) => a.localeCompare(b));

/** Renders the hook on `search` (a page URL's query string) and returns it with the URLs it writes. */
function hookOn(search: string, preferredZone: 'UTC' | 'JST' = 'UTC') {
  const written: UrlUpdateEvent[] = [];
  let hook: SearchUrl | undefined;
  function Probe() {
    hook = useSearchUrl({ preferredZone, initialRange: OFFERED, defaultRange: () => OFFERED });
    return null;
  }
  renderToStaticMarkup(
    <NuqsTestingAdapter searchParams={search} onUrlUpdate={(e) => void written.push(e)}>
      <Probe />
    </NuqsTestingAdapter>,
  );
  if (!hook) throw new Error('not rendered');
  /** Waits for nuqs to flush what was set (it batches updates on a timer). */
  const flushed = async () => {
    for (let i = 0; i < 20 && written.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    // As parameters: nuqs writes some characters its own way (a colon as it is).
    return written.map((e) => params(e.queryString));
  };
  return { hook, flushed, written };
}

describe('useSearchUrl', () => {
  it('reads a bare page as idle, in the person’s zone, offering the range it was given', () => {
    const { hook } = hookOn('', 'JST');
    expect(hook.search).toEqual({ kind: 'idle' });
    expect(hook.zone).toBe('JST');
    expect(hook.settings).toEqual({ tz: 'JST', sort: 'date_received', sortOrder: 'desc', pageSize: 25 });
    expect(hook.draft.range).toEqual(OFFERED);
    expect(hook.row).toBeNull();
  });

  it('reads a URL’s query, its open row, and the draft of that query', () => {
    const { hook } = hookOn(`${RANGE}&tz=JST&status=DELIVRD&page=3&page-size=50&row=ABC`);
    expect(hook.search.kind).toBe('ready');
    expect(hook.row).toBe('ABC');
    expect(hook.settings).toMatchObject({ tz: 'JST', pageSize: 50 });
    expect(hook.draft.range).toEqual({ dateFrom: '2026-11-19 00:00:00', dateTo: '2026-11-20 00:00:00' });
    expect(hook.draft.filters.status).toBe('DELIVRD');
  });

  it('keeps what a wrong link holds in the draft, and the settings it can read', () => {
    const { hook } = hookOn(`${RANGE}&da=12ab&sort-order=asc&page-size=30`);
    expect(hook.search.kind).toBe('invalid');
    expect(hook.draft.filters.da).toBe('12ab');
    expect(hook.settings).toMatchObject({ sortOrder: 'asc', pageSize: 25 });
  });

  it('writes a whole query, every parameter named, the open row closed', async () => {
    const { hook, flushed } = hookOn(`${RANGE}&status=DELIVRD&row=ABC`);
    if (hook.search.kind !== 'ready') throw new Error('expected ready');
    hook.show({ ...hook.search.query, filters: {}, sort: 'price', sortOrder: 'asc', page: 2 });
    expect(await flushed()).toEqual([params(`${RANGE}&tz=UTC&sort=price&sort-order=asc&page-size=25&page=2`)]);
  });

  it('moves the URL to another zone with the same instants, the open row kept', async () => {
    const { hook, flushed } = hookOn(`${RANGE}&tz=UTC&row=ABC`);
    hook.rezone('JST');
    expect(await flushed()).toEqual([
      params(
        'date-from=2026-11-19+09%3A00%3A00&date-to=2026-11-20+09%3A00%3A00&tz=JST&sort-order=desc&page-size=25&page=1&row=ABC',
      ),
    ]);
  });

  it('moves a wrong link’s readable range to another zone, leaving what is wrong for the person to fix', async () => {
    const { hook, flushed } = hookOn('date-from=2026-11-19+00%3A00%3A00&date-to=soon&da=12ab');
    hook.rezone('JST');
    expect(await flushed()).toEqual([params('date-from=2026-11-19+09%3A00%3A00&date-to=soon&da=12ab&tz=JST')]);
  });

  it('opens and closes a row without touching the query', async () => {
    const opened = hookOn(`${RANGE}&status=DELIVRD`);
    opened.hook.openRow('abc');
    expect(await opened.flushed()).toEqual([params(`${RANGE}&status=DELIVRD&row=abc`)]);
    const closed = hookOn(`${RANGE}&row=abc`);
    closed.hook.closeRow();
    expect(await closed.flushed()).toEqual([params(RANGE)]);
  });
});
