'use client';
/**
 * Coverage, always in view: which days Insights counted and which it left out, and why (the
 * server's own sentence). When days are missing because they were never copied, the offer to copy
 * them — what it will cost first, then PUT /api/history — and, while the copy runs, how far it is.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InsightsCoverage } from '@/lib/insights';
import { errorText } from '@/lib/http/api-client';
import { formatCount } from '@/lib/i18n/format';
import { DAY_MS } from '@/lib/time/units';
import { historyQueryOptions, updateHistoryMutation } from '@/lib/history/client';
import styles from './insights.module.css';

export function CoveragePanel({ coverage, rangeStartDay }: { coverage: InsightsCoverage; rangeStartDay: string }) {
  const missing = coverage.days.some((d) => d.state === 'missing' || d.state === 'syncing');
  const tone = coverage.complete ? 'complete' : coverage.from === null ? 'none' : 'partial';
  return (
    <section className={styles.coverage} data-tone={tone} aria-label="Coverage" data-testid="coverage">
      <p className={styles.coverageNote} data-testid="coverage-note">
        <strong>Local history:</strong> {coverage.note}. Days are {coverage.zone} days; Insights counts only days the
        local history holds completely, and costs no upstream call.
      </p>
      {missing ? <SyncOffer rangeStartDay={rangeStartDay} /> : null}
    </section>
  );
}

function SyncOffer({ rangeStartDay }: { rangeStartDay: string }) {
  const client = useQueryClient();
  const mirror = useQuery(historyQueryOptions());
  const start = useMutation(updateHistoryMutation(client));
  const state = mirror.data;
  if (!state) return mirror.isError ? <p className={styles.coverageNote}>{errorText(mirror.error)}</p> : null;
  // The oldest day the copy may start at, as the server's clock counts it (HISTORY_MAX_DAYS back).
  const oldest = state.sinceBounds.min;
  const wanted = rangeStartDay < oldest ? oldest : rangeStartDay;
  const earlier = wanted < state.since;

  if (state.enabled && !earlier) {
    return (
      <p className={styles.coverageNote} data-testid="sync-progress" role="status">
        The local history is being copied ({state.state}): {formatCount(state.records)} records so far,{' '}
        {state.callsLeft === null
          ? 'the calls to go known once a day’s first page is read'
          : `about ${formatCount(state.callsLeft)} calls to go`}
        {state.completeAt
          ? `, complete about ${new Date(state.completeAt).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`
          : ''}
        .{state.message ? ` ${state.message}` : ''} This page updates as days complete.
      </p>
    );
  }
  // What it will cost: the calls the copy still needs from its start day, and for days before it as
  // many as a typical day takes. Before the upstream has told the size of any day, the cost is said
  // per day rather than guessed.
  const since = earlier ? wanted : state.since;
  const extraDays = earlier ? Math.round((Date.parse(state.since) - Date.parse(since)) / DAY_MS) : 0;
  const calls =
    state.callsLeft === null || state.callsPerDay === null ? null : state.callsLeft + extraDays * state.callsPerDay;
  const days = extraDays + state.days.filter((d) => d.state !== 'complete' && d.state !== 'unsettled').length;
  return (
    <div className={styles.syncOffer} data-testid="sync-offer">
      <p className={styles.coverageNote}>
        Copy the account’s settled days from <strong>{since}</strong> into the local history to see them here:{' '}
        {calls === null ? (
          <>
            one upstream call per {formatCount(state.recordsPerCall)} records of each of its{' '}
            <strong>{formatCount(days)}</strong> days (how many calls in all is known once the first day’s first page is
            read),
          </>
        ) : (
          <>
            about <strong>{formatCount(calls)}</strong> upstream calls,
          </>
        )}{' '}
        made in the background with calls nobody is using (never the calls kept for people, never more than its share of
        any window).
        {state.message ? ` ${state.message}` : ''}
      </p>
      <button
        type="button"
        className="button button-primary"
        disabled={start.isPending}
        onClick={() => start.mutate({ enabled: true, since })}
        data-testid="start-sync"
      >
        {start.isPending ? 'Starting…' : `Start copying from ${since}`}
      </button>
      {start.isError ? <p role="alert">{errorText(start.error)}</p> : null}
    </div>
  );
}
