'use client';
/**
 * How the sync stands, in words: its state (and why it waits or stopped), the days and records
 * synced, the calls it spent today beside those people still have, the calls it still needs and
 * when it should be complete. A change of state is announced; the numbers that tick are not.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { HistoryState } from '@/lib/history';
import type { Zone } from '@/lib/time/zones';
import { msg } from '@/lib/i18n/message';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { dayTally } from '@/lib/history';
import {
  callsLeftText,
  completeAtText,
  historyStateDetail,
  historyStateWord,
  keepsUpWithText,
  pageSizeText,
  peopleCallsText,
  recordsKeptText,
  reserveText,
} from '@/lib/history';
import { ProgressBar } from '../common/progress-bar';
import facts from '../common/facts.module.css';
import badge from '../common/state-badge.module.css';
import styles from './history-summary.module.css';
import { useQuota } from '../quota/use-quota';

/** How each state reads at a glance (components/common/state-badge.module.css). */
const STATE_TONE: Partial<Record<HistoryState['state'], string>> = {
  syncing: 'active',
  waiting: 'waiting',
  complete: 'done',
  paused: 'stopped',
};

/** A sync stopped by a problem (the message says which) reads as a failure; one paused by a person does not. */
function toneOf(state: Pick<HistoryState, 'state' | 'message'>): string | undefined {
  return state.state === 'paused' && !state.message ? undefined : STATE_TONE[state.state];
}

/** "Local history: Complete." when the state changes between two answers (derived while rendering, as in the exports list). */
function useStateAnnouncement(word: string): string {
  const t = useTranslations('history');
  const [seen, setSeen] = useState({ word, text: '' });
  if (word !== seen.word) setSeen({ word, text: t('announce', { state: word }) });
  return seen.text;
}

export function HistorySummary({ state, zone }: { state: HistoryState; zone: Zone }) {
  const t = useTranslations('history.summary');
  const tHistory = useTranslations('history');
  const say = useWords();
  const f = useFormat();
  const locale = useLocale();
  const { quota } = useQuota();
  const word = say(historyStateWord(state));
  const announcement = useStateAnnouncement(word);
  const tally = dayTally(state.days);
  const percent = tally.settled > 0 ? Math.round((100 * tally.complete) / tally.settled) : 0;
  const progress = t('progress', { complete: tally.complete, settled: tally.settled });
  const people = quota ? peopleCallsText(quota) : null;
  const reserve = quota ? reserveText(quota) : null;

  return (
    <section
      className={`panel ${styles.summary}`}
      aria-labelledby="history-state"
      data-testid="history-summary"
      data-state={state.state}
    >
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <div className={styles.head}>
        <h2
          id="history-state"
          className={`${badge.badge} ${styles.state}`}
          data-tone={toneOf(state)}
          data-state={state.state}
          data-testid="history-state"
        >
          {word}
        </h2>
        <p className={styles.detail} data-testid="history-message">
          {say(historyStateDetail(state))}
        </p>
      </div>

      <ProgressBar percent={percent} text={progress} label={{ 'aria-label': t('progressLabel') }} tone="success" />

      <dl className={`${facts.facts} ${styles.facts}`}>
        <div>
          <dt>{t('recordsKept')}</dt>
          <dd data-testid="history-records">{say(recordsKeptText(state))}</dd>
        </div>
        <div>
          <dt>{t('callsToday')}</dt>
          <dd data-testid="history-calls-today">{f.count(state.callsToday)}</dd>
        </div>
        <div>
          <dt>{t('callsLeft')}</dt>
          <dd data-testid="history-calls-left">{say(callsLeftText(state))}</dd>
        </div>
        <div>
          <dt>{t('completeBy')}</dt>
          <dd data-testid="history-complete-at">{say(completeAtText(state, zone, locale))}</dd>
        </div>
        <div>
          <dt>{t('startDay')}</dt>
          <dd className="mono">{state.since}</dd>
        </div>
        <div>
          <dt>{tHistory('pageSize.label')}</dt>
          <dd data-testid="history-page-size">{say(pageSizeText(state))}</dd>
        </div>
        <div>
          <dt>{tHistory('keepsUpWith.label')}</dt>
          <dd data-testid="history-keeps-up-with">{say(keepsUpWithText(state))}</dd>
        </div>
      </dl>
      <p className={styles.people} data-testid="history-people-calls">
        {people ? say(people) : say(msg('history.readingCalls'))} {reserve ? say(reserve) : null}
      </p>
    </section>
  );
}
