'use client';
/**
 * Coverage, always in view: which days Insights counted and which it left out, and why (the
 * server's own sentence, in the request's language). When days are missing because they were never
 * synced, the offer to sync them — what it will cost first, then PUT /api/history — and, while the
 * sync runs, how far it is.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { InsightsCoverage } from '@/lib/insights';
import { errorText } from '@/lib/http/api-client';
import { historyStateWord } from '@/lib/history';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { DAY_MS } from '@/lib/time/units';
import { historyQueryOptions, updateHistoryMutation } from '@/lib/history/client';
import styles from './insights.module.css';

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

export function CoveragePanel({ coverage, rangeStartDay }: { coverage: InsightsCoverage; rangeStartDay: string }) {
  const t = useTranslations('insights.coverage');
  const missing = coverage.days.some((d) => d.state === 'missing' || d.state === 'syncing');
  const tone = coverage.complete ? 'complete' : coverage.from === null ? 'none' : 'partial';
  return (
    <section className={styles.coverage} data-tone={tone} aria-label={t('label')} data-testid="coverage">
      <p className={styles.coverageNote} data-testid="coverage-note">
        <strong>{t('lead')}</strong> {t('note', { note: coverage.note, zone: coverage.zone })}
      </p>
      {missing ? <SyncOffer rangeStartDay={rangeStartDay} /> : null}
    </section>
  );
}

function SyncOffer({ rangeStartDay }: { rangeStartDay: string }) {
  const t = useTranslations('insights.coverage');
  const say = useWords();
  const f = useFormat();
  const client = useQueryClient();
  const history = useQuery(historyQueryOptions());
  const start = useMutation(updateHistoryMutation(client));
  const state = history.data;
  if (!state) return history.isError ? <p className={styles.coverageNote}>{errorText(history.error)}</p> : null;
  // The oldest day the sync may start at, as the server's clock counts it (HISTORY_MAX_DAYS back).
  const oldest = state.sinceBounds.min;
  const wanted = rangeStartDay < oldest ? oldest : rangeStartDay;
  const earlier = wanted < state.since;

  if (state.enabled && !earlier) {
    // When it should be complete: in UTC, as the local history's days are UTC days.
    const completeAt = state.completeAt
      ? t('completeAt', { at: f.instant(new Date(state.completeAt), 'UTC'), zone: 'UTC' })
      : '';
    return (
      <p className={styles.coverageNote} data-testid="sync-progress" role="status">
        {t('progress', {
          state: say(historyStateWord(state)),
          records: state.records,
          calls: state.callsLeft === null ? t('callsUnknown') : t('callsAbout', { n: state.callsLeft }),
          completeAt,
        })}
        {state.message ? ` ${state.message}` : ''} {t('updates')}
      </p>
    );
  }
  // What it will cost: the calls the sync still needs from its start day, and for days before it as
  // many as a typical day takes. Before the upstream has told the size of any day, the cost is said
  // per day rather than guessed.
  const since = earlier ? wanted : state.since;
  const extraDays = earlier ? Math.round((Date.parse(state.since) - Date.parse(since)) / DAY_MS) : 0;
  const calls =
    state.callsLeft === null || state.callsPerDay === null ? null : state.callsLeft + extraDays * state.callsPerDay;
  const days = extraDays + state.days.filter((d) => d.state !== 'complete' && d.state !== 'unsettled').length;
  const cost =
    calls === null
      ? t.rich('costPerDay', { perCall: state.recordsPerCall, days, strong })
      : t.rich('costAbout', { calls, strong });
  return (
    <div className={styles.syncOffer} data-testid="sync-offer">
      <p className={styles.coverageNote}>
        {t.rich('offer', { since, strong })} {cost} {t('offerHow')}
        {state.message ? ` ${state.message}` : ''}
      </p>
      <button
        type="button"
        className="button button-primary"
        disabled={start.isPending}
        onClick={() => start.mutate({ enabled: true, since })}
        data-testid="start-sync"
      >
        {start.isPending ? t('starting') : t('start', { since })}
      </button>
      {start.isError ? <p role="alert">{errorText(start.error)}</p> : null}
    </div>
  );
}
