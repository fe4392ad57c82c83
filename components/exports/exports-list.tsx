'use client';
/**
 * The exports page: every export of the account, newest first, with its progress (records fetched
 * of those expected, upstream calls spent, pages taken from the cache), its state and when it
 * should be done, and what can be done with it (cancel, download, delete). A change of state is
 * announced to screen readers; the numbers that tick are not, so the page stays quiet.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { etaText, progressPercent, progressText, queryText, sizeText, stateText } from '@/lib/exports';
import { isActiveExportState, type ExportJob } from '@/lib/exports';
import { ApiError } from '@/lib/http/api-client';
import { formatCount, formatInstant } from '@/lib/i18n/format';
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
  const [seen, setSeen] = useState<{ jobs: readonly ExportJob[] | undefined; text: string }>({ jobs, text: '' });
  if (jobs !== seen.jobs) {
    const before = new Map((seen.jobs ?? []).map((j) => [j.id, j.state]));
    const changes = (jobs ?? [])
      .filter((j) => before.has(j.id) && before.get(j.id) !== j.state)
      .map((j) => `Export ${j.fileName}: ${stateText(j).toLowerCase()}.`);
    setSeen({ jobs, text: changes.length > 0 ? changes.join(' ') : seen.text });
  }
  return seen.text;
}

export function ExportsList() {
  const { data, error, isPending } = useQuery(exportsQueryOptions(PAGE_POLL_MS));
  const announcement = useStateAnnouncements(data?.jobs);
  const now = useNow(15_000);

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Exports</h1>
      <p className={styles.intro}>
        Exports read every record of a search through the account&rsquo;s quota, in the background, leaving the calls
        kept for interactive use. They survive restarts; finished files are kept for a limited time. Start one with{' '}
        <em>Download CSV</em> under the <Link href={PAGE_PATHS.transactions}>transactions</Link> table.
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="exports-announcement">
        {announcement}
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error instanceof ApiError
            ? `${error.problem.title}. ${error.problem.detail ?? ''}`
            : 'The exports could not be read.'}
        </p>
      ) : null}
      {isPending ? <p aria-busy="true">Loading exports…</p> : null}
      {data && data.jobs.length === 0 ? <p className={styles.empty}>No exports yet.</p> : null}
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
  const client = useQueryClient();
  const cancelling = useMutation(cancelExportMutation(client));
  const busy = cancelling.isPending;
  const problem = cancelling.error
    ? cancelling.error instanceof ApiError
      ? (cancelling.error.problem.detail ?? cancelling.error.problem.title)
      : 'That did not work; try again.'
    : null;
  const percent = progressPercent(job);
  const eta = etaText(job, now);
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
          {queryText(job)}
        </h2>
        <span
          className={`${badge.badge} ${styles.state}`}
          data-tone={STATE_TONE[job.state]}
          data-state={job.state}
          data-testid="export-state"
        >
          {stateText(job)}
        </span>
      </header>

      <ProgressBar
        className={styles.progress}
        percent={percent}
        text={progressText(job)}
        label={{ 'aria-labelledby': titleId }}
        textTestId="export-progress"
      />

      <dl className={`${facts.facts} ${styles.facts}`}>
        <div>
          <dt>Upstream calls</dt>
          <dd data-testid="export-calls">{formatCount(job.progress.callsSpent)}</dd>
        </div>
        <div>
          <dt>From the cache</dt>
          <dd>
            {formatCount(job.progress.pagesCached)} {job.progress.pagesCached === 1 ? 'page' : 'pages'}
          </dd>
        </div>
        {job.progress.recordsFromHistory > 0 ? (
          <div>
            <dt>From the local history</dt>
            <dd data-testid="export-local">
              {formatCount(job.progress.recordsFromHistory)}{' '}
              {job.progress.recordsFromHistory === 1 ? 'record' : 'records'}
            </dd>
          </div>
        ) : null}
        {job.progress.windows.length > 1 ? (
          <div>
            <dt>Windows</dt>
            <dd>
              {job.progress.windows.filter((w) => w.state === 'done').length} of {job.progress.windows.length} read
            </dd>
          </div>
        ) : null}
        {eta ? (
          <div>
            <dt>Done in</dt>
            <dd data-testid="export-eta">{eta}</dd>
          </div>
        ) : null}
        <div>
          <dt>Columns</dt>
          <dd>{job.columns.length}</dd>
        </div>
        {job.fileBytes !== null ? (
          <div>
            <dt>File</dt>
            <dd>{sizeText(job.fileBytes)}</dd>
          </div>
        ) : null}
      </dl>

      {job.schedule && active ? (
        <p className={styles.note}>
          {job.schedule.reserve > 0 ? `${job.schedule.reserve} calls an hour stay free for searches.` : null}
        </p>
      ) : null}
      {job.message ? (
        <p
          className={styles.message}
          data-tone={job.state === 'failed' ? 'danger' : 'info'}
          data-testid="export-message"
        >
          {job.message}
          {job.state === 'waiting' && job.waitingUntil === null ? (
            <>
              {' '}
              <Link href={signInHref(PAGE_PATHS.exports)}>Sign in</Link>
            </>
          ) : null}
        </p>
      ) : null}
      {job.warnings.length > 0 ? (
        <ul className={styles.warnings} data-testid="export-warnings">
          {job.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {job.countCheck && !job.countCheck.ok ? (
        <p className={styles.message} data-tone="warning">
          The file holds {formatCount(job.countCheck.written)} records; the upstream reported{' '}
          {formatCount(job.countCheck.expected)}.
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
            Download {job.fileName}
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
            Cancel export
          </button>
        ) : (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={cancel}
            disabled={busy}
            data-testid="export-delete"
          >
            Delete
          </button>
        )}
        <span className={styles.meta}>
          {/* In the zone the export's range is read in: one card, one zone. */}
          Started {formatInstant(new Date(job.createdAt), job.query.tz).slice(0, 16)} {job.query.tz}
          {job.expiresAt
            ? ` · kept until ${formatInstant(new Date(job.expiresAt), job.query.tz).slice(0, 16)} ${job.query.tz}`
            : ''}
        </span>
      </footer>
    </article>
  );
}
