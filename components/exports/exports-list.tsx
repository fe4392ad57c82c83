'use client';
/**
 * The exports page: every export of the account, newest first, with its progress (records fetched
 * of those expected, upstream calls spent, pages taken from the cache), its state and when it
 * should be done, and what can be done with it (cancel, download, delete). A change of state is
 * announced to screen readers; the numbers that tick are not, so the page stays quiet.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import type { Message } from '@/lib/i18n/message';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { clock, etaText, progressPercent, progressText, queryText, sizeText, stateText } from '@/lib/exports';
import { isActiveExportState, type ExportJob } from '@/lib/exports';
import { ApiError } from '@/lib/http/api-client';
import { PAGE_PATHS, signInHref } from '@/lib/http/paths';
import { cancelExportMutation, exportsQueryOptions, PAGE_POLL_MS } from '@/lib/exports/client';
import { ProgressBar } from '../common/progress-bar';
import facts from '../common/facts.module.css';
import badge from '../common/state-badge.module.css';
import styles from './exports-list.module.css';

/** How each state reads at a glance (components/common/state-badge.module.css). */
const STATE_TONE: Partial<Record<ExportJob['state'], string>> = {
  queued: 'active',
  running: 'active',
  waiting: 'waiting',
  done: 'done',
  failed: 'stopped',
};

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/**
 * "Export … is done" when a job's state changes between two polls. Derived while rendering from
 * the previous answer (React's pattern for state that follows a prop), not in an effect.
 */
function useStateAnnouncements(jobs: readonly ExportJob[] | undefined): string {
  const t = useTranslations('exports.list');
  const say = useWords();
  const locale = useLocale();
  const [seen, setSeen] = useState<{ jobs: readonly ExportJob[] | undefined; text: string }>({ jobs, text: '' });
  if (jobs !== seen.jobs) {
    const before = new Map((seen.jobs ?? []).map((j) => [j.id, j.state]));
    const changes = (jobs ?? [])
      .filter((j) => before.has(j.id) && before.get(j.id) !== j.state)
      .map((j) => t('announce', { file: j.fileName, state: say(stateText(j, locale)) }));
    setSeen({ jobs, text: changes.length > 0 ? changes.join(' ') : seen.text });
  }
  return seen.text;
}

export function ExportsList() {
  const t = useTranslations('exports.list');
  const { data, error, isPending } = useQuery(exportsQueryOptions(PAGE_POLL_MS));
  const announcement = useStateAnnouncements(data?.jobs);
  const now = useNow(15_000);

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('title')}</h1>
      <p className={styles.intro}>
        {t.rich('intro', {
          em: (chunks) => <em>{chunks}</em>,
          link: (chunks) => <Link href={PAGE_PATHS.transactions}>{chunks}</Link>,
        })}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="exports-announcement">
        {announcement}
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error instanceof ApiError ? `${error.problem.title}. ${error.problem.detail ?? ''}` : t('unreadable')}
        </p>
      ) : null}
      {isPending ? <p aria-busy="true">{t('loading')}</p> : null}
      {data && data.jobs.length === 0 ? <p className={styles.empty}>{t('empty')}</p> : null}
      {data && data.jobs.length > 0 ? (
        <ul className={styles.list} data-testid="exports-list">
          {data.jobs.map((job) => (
            <li key={job.id}>
              <ExportCard job={job} now={now} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function ExportCard({ job, now }: { job: ExportJob; now: number }) {
  const t = useTranslations('exports.card');
  const say = useWords();
  const locale = useLocale();
  const f = useFormat();
  const client = useQueryClient();
  const cancelling = useMutation(cancelExportMutation(client));
  const busy = cancelling.isPending;
  const problem = cancelling.error
    ? cancelling.error instanceof ApiError
      ? (cancelling.error.problem.detail ?? cancelling.error.problem.title)
      : t('failed')
    : null;
  const percent = progressPercent(job);
  const eta: Message | null = etaText(job, now, locale);
  const active = isActiveExportState(job.state);
  const titleId = `export-${job.id}`;

  const cancel = () => cancelling.mutate(job.id);

  return (
    <article
      className={`panel ${styles.card}`}
      aria-labelledby={titleId}
      data-testid="export-card"
      data-state={job.state}
      data-id={job.id}
    >
      <header className={styles.head}>
        <h2 id={titleId} className={styles.name}>
          {queryText(job, locale).map(say).join(' \u00b7 ')}
        </h2>
        <span
          className={`${badge.badge} ${styles.state}`}
          data-tone={STATE_TONE[job.state]}
          data-state={job.state}
          data-testid="export-state"
        >
          {say(stateText(job, locale))}
        </span>
      </header>

      <ProgressBar
        className={styles.progress}
        percent={percent}
        text={say(progressText(job))}
        label={{ 'aria-labelledby': titleId }}
        textTestId="export-progress"
      />

      <dl className={`${facts.facts} ${styles.facts}`}>
        <div>
          <dt>{t('calls')}</dt>
          <dd data-testid="export-calls">{f.count(job.progress.callsSpent)}</dd>
        </div>
        <div>
          <dt>{t('fromCache')}</dt>
          <dd>{t('pages', { count: job.progress.pagesCached })}</dd>
        </div>
        {job.progress.recordsFromHistory > 0 ? (
          <div>
            <dt>{t('fromHistory')}</dt>
            <dd data-testid="export-local">{t('records', { count: job.progress.recordsFromHistory })}</dd>
          </div>
        ) : null}
        {job.progress.windows.length > 1 ? (
          <div>
            <dt>{t('windows')}</dt>
            <dd>
              {t('windowsRead', {
                read: job.progress.windows.filter((w) => w.state === 'done').length,
                all: job.progress.windows.length,
              })}
            </dd>
          </div>
        ) : null}
        {eta ? (
          <div>
            <dt>{t('doneIn')}</dt>
            <dd data-testid="export-eta">{say(eta)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('columns')}</dt>
          <dd>{job.columns.length}</dd>
        </div>
        {job.fileBytes !== null ? (
          <div>
            <dt>{t('file')}</dt>
            <dd>{sizeText(job.fileBytes)}</dd>
          </div>
        ) : null}
      </dl>

      {job.schedule && active ? (
        <p className={styles.note}>
          {job.schedule.reserve > 0 ? t('reserve', { reserve: job.schedule.reserve }) : null}
        </p>
      ) : null}
      {job.message ? (
        <p
          className={styles.message}
          data-tone={job.state === 'failed' ? 'danger' : 'info'}
          data-testid="export-message"
        >
          {say(job.message)}
          {job.state === 'waiting' && job.waitingUntil === null ? (
            <>
              {' '}
              <Link href={signInHref(PAGE_PATHS.exports)}>{t('signIn')}</Link>
            </>
          ) : null}
        </p>
      ) : null}
      {job.warnings.length > 0 ? (
        <ul className={styles.warnings} data-testid="export-warnings">
          {job.warnings.map(say).map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {job.countCheck && !job.countCheck.ok ? (
        <p className={styles.message} data-tone="warning">
          {t('countCheck', { written: job.countCheck.written, expected: job.countCheck.expected })}
        </p>
      ) : null}
      {problem ? (
        <p className={styles.error} role="alert">
          {problem}
        </p>
      ) : null}

      <footer className={styles.actions}>
        {job._links.file ? (
          <a
            className={`button button-primary button-small ${styles.download}`}
            href={job._links.file.href}
            download
            data-testid="export-download"
          >
            {t('download', { file: job.fileName })}
          </a>
        ) : null}
        {active ? (
          <button
            type="button"
            className="button button-small"
            onClick={cancel}
            disabled={busy}
            data-testid="export-cancel"
          >
            {t('cancel')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={cancel}
            disabled={busy}
            data-testid="export-delete"
          >
            {t('delete')}
          </button>
        )}
        <span className={styles.meta}>
          {/* In the zone the export's range is read in: one card, one zone. */}
          {t('started', { at: clock(job.createdAt, job.query.tz, locale) })}
          {job.expiresAt ? t('keptUntil', { at: clock(job.expiresAt, job.query.tz, locale) }) : ''}
        </span>
      </footer>
    </article>
  );
}
