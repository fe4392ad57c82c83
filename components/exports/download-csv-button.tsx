'use client';
/**
 * "Download CSV" beside the pagination. Two choices, each with the visible columns or all of them:
 *  - the rows on screen: written here from the rows already shown — no request, no upstream call;
 *  - every record of the search: first what it will cost (records, upstream calls, time from the
 *    account's windows), then, on confirmation, an export job. One that fits in the calls free right
 *    now downloads as soon as it is done; a larger one runs in the background, listed on /exports.
 */
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import { CDR_FIELDS, type CdrFieldKey } from '@/lib/cdr/fields';
import { csvFileName } from '@/lib/exports/file-name';
import { progressText, stateText } from '@/lib/exports/job-words';
import { isActiveExportState, type ExportEstimate, type ExportJob } from '@/lib/exports/types';
import { FILTERS } from '@/lib/query/filters';
import type { TransactionsQuery } from '@/lib/query/transactions-query';
import { ApiError } from '@/lib/ui/api-client';
import { formatCount } from '@/lib/ui/format';
import { useTableView } from '../transactions/TableViewContext';
import { createExport, estimateExport, readExport, saveFile, type ExportBody } from './exports-api';
import styles from './download-csv-button.module.css';

type Scope = 'page' | 'all';
type ColumnChoice = 'visible' | 'all';

/** How long "downloads straight away" waits for a small export before handing it to /exports. */
const STRAIGHT_AWAY_MS = 30_000;
const POLL_MS = 700;

type Phase =
  | { kind: 'choose' }
  | { kind: 'estimating' }
  | { kind: 'estimated'; estimate: ExportEstimate }
  | { kind: 'starting' }
  | { kind: 'preparing'; job: ExportJob }
  | { kind: 'started'; job: ExportJob }
  | { kind: 'downloaded'; text: string }
  | { kind: 'error'; message: string };

function bodyOf(query: TransactionsQuery, columns: readonly CdrFieldKey[]): ExportBody {
  const body: ExportBody = {
    'date-from': query.dateFrom,
    'date-to': query.dateTo,
    tz: query.tz,
    'sort-order': query.sortOrder,
    columns: [...columns],
  };
  for (const def of FILTERS) {
    const v = query.filters[def.param];
    if (v) body[def.param] = v;
  }
  return body;
}

function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.problem.errors ? ` ${Object.values(err.problem.errors).join(' ')}` : '';
    return `${err.problem.title}. ${err.problem.detail ?? ''}${fields}`.trim();
  }
  return 'Something went wrong; try again.';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function DownloadCsvButton() {
  const view = useTableView();
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [scope, setScope] = useState<Scope>('page');
  const [columnChoice, setColumnChoice] = useState<ColumnChoice>('visible');
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const alive = useRef(true);
  const ids = { title: useId(), status: useId() };

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const query = view.query;
  if (!query || view.total === null || view.total === 0) return null;
  const columns: CdrFieldKey[] = columnChoice === 'visible' ? [...view.columns] : CDR_FIELDS.map((f) => f.key);
  const total = view.total;

  function open() {
    dialog.current?.showModal();
    // The quota moves on between two openings: an estimate is always asked afresh.
    if (scope === 'all') void estimate();
    else setPhase({ kind: 'choose' });
  }

  function close() {
    dialog.current?.close();
  }

  async function downloadPage() {
    if (!query) return;
    // Lazily: the CSV library's browser build is only needed on this click.
    const { recordsToCsvText } = await import('@/lib/exports/csv-browser');
    const text = recordsToCsvText(view.rows as unknown as Record<string, unknown>[], columns);
    saveFile({ text, fileName: csvFileName(query, { page: query.page }) });
    setPhase({ kind: 'downloaded', text: `Downloaded the ${formatCount(view.rows.length)} rows on screen. No upstream call was made.` });
  }

  async function estimate(nextColumns: CdrFieldKey[] = columns) {
    if (!query) return;
    setPhase({ kind: 'estimating' });
    try {
      const e = await estimateExport(bodyOf(query, nextColumns));
      if (alive.current) setPhase({ kind: 'estimated', estimate: e });
    } catch (err) {
      if (alive.current) setPhase({ kind: 'error', message: messageOf(err) });
    }
  }

  async function start(fitsNow: boolean) {
    if (!query) return;
    setPhase({ kind: 'starting' });
    let job: ExportJob;
    try {
      job = await createExport(client, bodyOf(query, columns));
    } catch (err) {
      if (alive.current) setPhase({ kind: 'error', message: messageOf(err) });
      return;
    }
    if (!fitsNow) {
      setPhase({ kind: 'started', job });
      return;
    }
    // Small enough to be done in seconds: wait for it here, then hand the file over.
    setPhase({ kind: 'preparing', job });
    const until = Date.now() + STRAIGHT_AWAY_MS;
    while (alive.current && Date.now() < until) {
      await sleep(POLL_MS);
      try {
        job = await readExport(job.id);
      } catch (err) {
        setPhase({ kind: 'error', message: messageOf(err) });
        return;
      }
      if (!alive.current) return;
      if (job.state === 'done' && job._links.file) {
        saveFile({ href: job._links.file.href });
        setPhase({ kind: 'downloaded', text: `Downloaded all ${formatCount(job.progress.recordsFetched)} records (${formatCount(job.progress.callsSpent)} upstream calls).` });
        return;
      }
      if (!isActiveExportState(job.state)) {
        setPhase({ kind: 'error', message: job.message ?? `The export ${job.state}.` });
        return;
      }
      setPhase({ kind: 'preparing', job });
    }
    if (alive.current) setPhase({ kind: 'started', job });
  }

  function chooseScope(next: Scope) {
    setScope(next);
    if (next === 'all') void estimate();
    else setPhase({ kind: 'choose' });
  }

  function chooseColumns(next: ColumnChoice) {
    setColumnChoice(next);
    // The estimate does not depend on the columns, but the file name and request do: ask again.
    if (scope === 'all') void estimate(next === 'visible' ? [...view.columns] : CDR_FIELDS.map((f) => f.key));
  }

  const busy = phase.kind === 'estimating' || phase.kind === 'starting' || phase.kind === 'preparing';
  const estimated = phase.kind === 'estimated' ? phase.estimate : null;

  return (
    <>
      <button type="button" className="button button-small" onClick={open} data-testid="download-csv" aria-haspopup="dialog">
        Download CSV
      </button>
      <dialog ref={dialog} className={styles.dialog} aria-labelledby={ids.title} data-testid="download-dialog" onClose={() => setPhase({ kind: 'choose' })}>
        <form
          method="dialog"
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            if (scope === 'page') void downloadPage();
            else if (estimated) void start(estimated.schedule.fitsNow);
          }}
        >
          <h2 id={ids.title} className={styles.title}>
            Download CSV
          </h2>

          <fieldset className={styles.group}>
            <legend>Records</legend>
            <label className={styles.choice}>
              <input type="radio" name="scope" value="page" checked={scope === 'page'} onChange={() => chooseScope('page')} disabled={busy} />
              <span>
                Rows on screen ({formatCount(view.rows.length)})<span className={styles.hint}>Instant, no upstream call.</span>
              </span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="scope" value="all" checked={scope === 'all'} onChange={() => chooseScope('all')} disabled={busy} />
              <span>
                All {formatCount(total)} records<span className={styles.hint}>An export job, within the account&rsquo;s quota.</span>
              </span>
            </label>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Columns</legend>
            <label className={styles.choice}>
              <input type="radio" name="columns" value="visible" checked={columnChoice === 'visible'} onChange={() => chooseColumns('visible')} disabled={busy} />
              <span>Visible columns ({view.columns.length})</span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="columns" value="all" checked={columnChoice === 'all'} onChange={() => chooseColumns('all')} disabled={busy} />
              <span>All columns ({CDR_FIELDS.length})</span>
            </label>
          </fieldset>

          <div id={ids.status} className={styles.status} aria-live="polite" data-testid="download-status">
            {scope === 'all' && phase.kind === 'estimating' ? <p>Working out what it costs…</p> : null}
            {estimated ? <EstimateView estimate={estimated} /> : null}
            {phase.kind === 'starting' ? <p>Starting the export…</p> : null}
            {phase.kind === 'preparing' ? (
              <p>
                Preparing the file: {progressText(phase.job)} ({stateText(phase.job).toLowerCase()}).
              </p>
            ) : null}
            {phase.kind === 'started' ? (
              <p data-testid="export-started">
                The export runs in the background ({stateText(phase.job).toLowerCase()}). Follow it and download the file on the{' '}
                <Link href="/exports" onClick={close}>
                  Exports page
                </Link>
                .
              </p>
            ) : null}
            {phase.kind === 'downloaded' ? <p data-testid="download-done">{phase.text}</p> : null}
            {phase.kind === 'error' ? (
              <p className={styles.error} role="alert">
                {phase.message}
              </p>
            ) : null}
          </div>

          <div className={styles.actions}>
            <button type="button" className="button" onClick={close}>
              {phase.kind === 'downloaded' || phase.kind === 'started' ? 'Close' : 'Cancel'}
            </button>
            {scope === 'page' ? (
              <button type="submit" className="button button-primary" data-testid="download-confirm">
                Download {formatCount(view.rows.length)} rows
              </button>
            ) : (
              <button type="submit" className="button button-primary" disabled={!estimated || busy} data-testid="download-confirm">
                {estimated?.schedule.fitsNow ? 'Download now' : 'Start export'}
              </button>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}

function EstimateView({ estimate }: { estimate: ExportEstimate }) {
  const records =
    estimate.records === null ? 'An unknown number of records' : `${estimate.recordsKnown === 'approximate' ? 'About ' : ''}${formatCount(estimate.records)} records`;
  return (
    <div className={styles.estimate} data-testid="export-estimate">
      <p>
        <strong>{records}</strong>, {formatCount(estimate.calls)} upstream {estimate.calls === 1 ? 'call' : 'calls'} at {estimate.pageSize} a page
        {estimate.pagesCached > 0 ? ` (${formatCount(estimate.pagesCached)} ${estimate.pagesCached === 1 ? 'page' : 'pages'} already cached)` : ''}.
      </p>
      <p>{estimate.summary}</p>
      {estimate.warnings.length > 0 ? (
        <ul className={styles.warnings}>
          {estimate.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
