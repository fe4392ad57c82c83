import 'server-only';
/**
 * A reconciliation's plan, made when it is created and again when it starts (days the local
 * history completed in between cost nothing then): the rows the local history answers
 * (./local-answer.ts), the rest grouped into upstream tasks (./plan-upstream.ts) with the windows'
 * sizes (./window-sizes.ts), and when those calls can go at the account's background rate (the
 * governor's own plan: the calls kept for people are never counted as this job's).
 */
import type { UpstreamGateway } from '../upstream/server';
import { formatWallClock, type Zone } from '../time/zones';
import { backgroundRate } from '../governor/server';
import { PLAN_WINDOWS_SHOWN, type ReconcileKind, type ReconcilePlan } from './api';
import type { StoredRow, StoredTask } from './job-row';
import { answerLocally, type DraftRow, type LocalDeps } from './local-answer';
import { planUpstream, windowsOf } from './plan-upstream';
import { windowSizes, type SizeDeps } from './window-sizes';

/** How long one call is assumed to hold the account's one call in flight (as an export's estimate assumes). */
export const ASSUMED_CALL_MS = 1_500;

export interface PlanDeps {
  local: LocalDeps;
  sizes: SizeDeps;
  gateway: Pick<UpstreamGateway, 'planCalls' | 'limits'>;
  now(): number;
}

export interface PlanAccount {
  apiKey: string;
  enterpriseId: string | null;
  /** The local history's key of the account. */
  scope: string;
}

export interface RowsPlan {
  /** The rows given, answered as far as the local history can. */
  rows: DraftRow[];
  tasks: StoredTask[];
  plan: Omit<ReconcilePlan, 'rows' | 'invalid'>;
}

/**
 * Plans `pending` (valid rows still to answer). `callsAhead`: calls of the account's earlier
 * reconciliations still to make (they go first).
 */
export async function planRows(
  deps: PlanDeps,
  account: PlanAccount,
  kind: ReconcileKind,
  pending: readonly StoredRow[],
  pageSize: number,
  callsAhead: number,
  tz: Zone,
): Promise<RowsPlan> {
  const rows = await answerLocally(deps.local, account, kind, pending);
  const left = rows.filter((r) => r.outcome === 'pending' && r.pieces.length > 0);
  const upstreamRows = left.map((r) => ({ value: r.value!, pieces: r.pieces }));
  const windows = windowsOf(upstreamRows);
  const sizes = await windowSizes(deps.sizes, account, windows, pageSize);
  const up = planUpstream(kind, upstreamRows, windows, sizes, pageSize);
  const schedule = await deps.gateway.planCalls(account.apiKey, 'export', up.calls, callsAhead, ASSUMED_CALL_MS);
  const rate = backgroundRate(deps.gateway.limits, 'export');
  const now = deps.now();
  return {
    rows,
    tasks: up.tasks,
    plan: {
      local: rows.length - left.length,
      upstream: left.length,
      calls: up.calls,
      callsKnown: up.callsKnown,
      callsAtMost: up.callsAtMost,
      callsOneByOne: left.length,
      windows: up.windows.slice(0, PLAN_WINDOWS_SHOWN).map(({ from, to, ...w }) => ({
        ...w,
        dateFrom: formatWallClock(new Date(from), tz),
        dateTo: formatWallClock(new Date(to), tz),
      })),
      windowsNotShown: Math.max(0, up.windows.length - PLAN_WINDOWS_SHOWN),
      eta:
        up.calls === 0
          ? new Date(now).toISOString()
          : schedule.finishAt === null
            ? null
            : new Date(schedule.finishAt).toISOString(),
      durationMs: up.calls === 0 ? 0 : schedule.finishAt === null ? null : Math.max(0, schedule.finishAt - now),
      perHour: rate.perHour,
      perDay: rate.perDay,
      reserve: deps.gateway.limits.backgroundReserve,
      pageSize,
    },
  };
}
