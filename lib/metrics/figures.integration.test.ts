/**
 * The figures every instance reads from the store, on both backends: export jobs by state, the
 * local history's days by state and its lag, the quota left — as a scrape shows them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { BACKENDS } from '../../tests/support/backends';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { addDays, dayOf } from '../history/days';
import { metrics } from './registry';

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

function value(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe.each(BACKENDS)('the store’s figures on %s', (dialect) => {
  it('are what the store holds, read at the scrape', async () => {
    const h = await startHarnessOn(dialect);
    harnesses.push(h);
    h.start();
    const account = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    for (const d of ['01', '02', '03'])
      await h.exports.create(
        account,
        exportRequest(
          { 'date-from': `2026-08-${d} 00:00:00`, 'date-to': `2026-08-${d} 01:00:00` },
          account.enterpriseId,
        ),
      );
    // A copy turned on, ten settled days back, nothing copied (no session: it waits).
    const since = addDays(dayOf(Date.now()), -13);
    await h.history.put({ apiKey: 'demo', enterpriseId: 'ent-sakura', sid: 'none' }, { enabled: true, since });

    const text = await metrics().registry.metrics();
    // Queued, or taken up by the runner meanwhile (it waits for a sign-in): three with work left.
    const active = ['queued', 'running', 'waiting'].map((state) => value(text, `sms_export_jobs{state="${state}"}`)!);
    expect(active.reduce((a, b) => a + b, 0)).toBe(3);
    expect(value(text, 'sms_export_jobs{state="done"}')).toBe(0);
    const lag = value(text, 'sms_history_lag_days')!;
    expect(lag).toBeGreaterThanOrEqual(9);
    expect(value(text, 'sms_history_days{state="missing"}')).toBe(lag);
    expect(value(text, 'sms_history_days{state="complete"}')).toBe(0);
    for (const window of ['minute', 'hour', 'day'])
      expect(value(text, `sms_upstream_quota_remaining{window="${window}",scope="lowest_account"}`)).toBe(
        { minute: 3, hour: 10, day: 100 }[window],
      );
  });
});
