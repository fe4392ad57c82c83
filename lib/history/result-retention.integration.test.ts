/**
 * Complete results kept as local history while the copy is off follow the cache's retention: a
 * person who never turned the copy on keeps no number or text on disk past the time the cache keeps
 * its pages. And deleting the local history forgets the key's cached pages and records too. Both
 * backends; the clock of the dashboard is moved, the simulator's is real.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../tests/support/backends';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { parseQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { scopeOf } from './scope';

const HOUR = 3600_000;
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function rows(h: Harness, table: 'history_records' | 'history_results' | 'cache_pages' | 'cache_records') {
  const { rows: found } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
    h.store.db,
  );
  return Number(found[0]!.n);
}

/** Reads a small settled result in full (one page): the recorder copies it into the local history. */
async function searchSettled(h: Harness, clock: { now: number }) {
  const params = {
    'date-from': formatWallClock(new Date(clock.now - 5 * 24 * HOUR), 'UTC'),
    'date-to': formatWallClock(new Date(clock.now - 5 * 24 * HOUR + 4 * HOUR), 'UTC'),
    tz: 'UTC',
    'page-size': '100',
  };
  const parsed = parseQuery(new URLSearchParams(params));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const page = await h.transactions.page(h.account('demo'), parsed.query);
  expect(page._meta.source).toBe('upstream');
  const until = Date.now() + 10_000;
  while ((await h.store.history.results(scopeOf(h.account('demo')).key)).length === 0) {
    if (Date.now() > until) throw new Error('the result was not copied');
    await new Promise((r) => setTimeout(r, 50));
  }
  await h.store.history.settled();
}

describe.each(BACKENDS)('complete results of a copy that is off, on %s', (dialect) => {
  it('are kept while the cache keeps their pages, then forgotten with every record', async () => {
    const clock = { now: Date.now() };
    const h = await startHarnessOn(dialect, { now: () => clock.now, sim: { days: 8 } });
    harnesses.push(h);
    await searchSettled(h, clock);
    expect(await rows(h, 'history_records')).toBeGreaterThan(0);

    // A day before the cache lets the pages go: kept.
    clock.now += (h.config.CACHE_SETTLED_TTL_HOURS - 24) * HOUR;
    await h.history.enforceRetention();
    expect(await rows(h, 'history_results')).toBe(1);
    expect(await rows(h, 'history_records')).toBeGreaterThan(0);

    // Past it: gone from the store, records and all.
    clock.now += 25 * HOUR;
    await h.history.enforceRetention();
    await h.store.history.settled();
    expect(await rows(h, 'history_results')).toBe(0);
    expect(await rows(h, 'history_records')).toBe(0);
  });

  it('follow the copy’s own retention once the copy is on', async () => {
    const clock = { now: Date.now() };
    const h = await startHarnessOn(dialect, { now: () => clock.now, sim: { days: 8 } });
    harnesses.push(h);
    await searchSettled(h, clock);
    // Turned on (no session: it waits), its start day well before the result.
    await h.history.put({ ...h.account('demo'), sid: 'none' }, { enabled: true });
    clock.now += (h.config.CACHE_SETTLED_TTL_HOURS + 1) * HOUR;
    await h.history.enforceRetention();
    expect(await rows(h, 'history_results')).toBe(1);
  });

  it('go, with the key’s cached pages and records, when the local history is deleted', async () => {
    const clock = { now: Date.now() };
    const h = await startHarnessOn(dialect, { now: () => clock.now, sim: { days: 8 } });
    harnesses.push(h);
    await searchSettled(h, clock);
    expect(await rows(h, 'cache_pages')).toBeGreaterThan(0);
    expect(await rows(h, 'cache_records')).toBeGreaterThan(0);
    await h.history.delete({ ...h.account('demo'), sid: 'none' });
    await h.store.history.settled();
    for (const table of ['history_records', 'history_results', 'cache_pages', 'cache_records'] as const)
      expect(await rows(h, table), table).toBe(0);
  });
});
