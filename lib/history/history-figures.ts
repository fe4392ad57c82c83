import 'server-only';
/**
 * The local history as the metrics see it, over every account, from the store (every instance
 * reports the same): its days by state (sms_history_days) and how far the copies that are turned on
 * are behind (sms_history_lag_days: settled days they want and do not hold complete).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { CachePolicy } from '../cache/server';
import type { Config } from '../config';
import { daysBetween, lastSettledDay } from './days';
import type { HistoryStore } from './store/history-store';
import { wantedDays } from './sync-step';

export interface HistoryFigureDeps {
  db: Kysely<Database>;
  history: Pick<HistoryStore, 'enabledScopes' | 'listDays'>;
  policy: Pick<CachePolicy, 'settledBefore'>;
  config: Pick<Config, 'HISTORY_MAX_DAYS'>;
  now: () => number;
}

/** Per turned-on copy: settled days it wants, and of them those it has begun and those complete. */
async function copies(deps: HistoryFigureDeps): Promise<{ wanted: number; begun: number; complete: number }[]> {
  const now = deps.now();
  const settledBefore = deps.policy.settledBefore(now);
  const last = lastSettledDay(settledBefore);
  const out = [];
  for (const settings of await deps.history.enabledScopes()) {
    const { first } = wantedDays(settings, deps.config.HISTORY_MAX_DAYS, settledBefore, now);
    const wanted = first <= last ? new Set(daysBetween(first, last)) : new Set<string>();
    const rows = (await deps.history.listDays(settings.scope)).filter((d) => wanted.has(d.day));
    out.push({
      wanted: wanted.size,
      begun: rows.length,
      complete: rows.filter((d) => d.state === 'complete').length,
    });
  }
  return out;
}

/** Days by state (complete, syncing, building), and `missing`: wanted by a turned-on copy, not begun. */
export async function historyDayCounts(deps: HistoryFigureDeps): Promise<Record<string, number>> {
  const rows = await deps.db
    .selectFrom('history_days')
    .select(['state', sql<number | string>`count(*)`.as('n')])
    .groupBy('state')
    .execute();
  const counts: Record<string, number> = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  counts.missing = (await copies(deps)).reduce((sum, c) => sum + (c.wanted - c.begun), 0);
  return counts;
}

/** The most settled days any turned-on copy still lacks. */
export async function historyLagDays(deps: HistoryFigureDeps): Promise<number> {
  return Math.max(0, ...(await copies(deps)).map((c) => c.wanted - c.complete));
}
