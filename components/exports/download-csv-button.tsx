'use client';
/**
 * "Download CSV" beside the pagination. Two choices, each with the visible columns or all of them:
 *  - the rows on screen: written here from the rows already shown — no request, no upstream call;
 *  - every record of the search: first what it will cost (records, upstream calls, time from the
 *    account's windows), then, on confirmation, an export job. One that fits in the calls free right
 *    now is watched here (TanStack Query polls it) and downloads as soon as it is done; a larger one
 *    runs in the background, listed on /exports.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { isActiveExportState, type ExportEstimate, type ExportJob } from '@/lib/exports';
import { CDR_FIELDS, type CdrFieldKey } from '@/lib/cdr/fields';
import type { Cdr } from '@/lib/cdr/schema';
import type { TransactionsQuery } from '@/lib/query/query';
import { csvFileName } from '@/lib/csv/file-name';
import { progressText, stateText } from '@/lib/exports';
import { queryBody } from '@/lib/query/query';
import { errorText } from '@/lib/http/api-client';
import { PAGE_PATHS } from '@/lib/http/paths';
import { createExportMutation, estimateExportMutation, exportQueryOptions } from '@/lib/exports/client';
import { saveFile } from '@/lib/csv/save-file';
import { notePageCsv } from '@/lib/team/client';
import modal from '../common/modal-dialog.module.css';
import styles from './download-csv-button.module.css';
import { rememberExcel, rememberedExcel } from '@/lib/csv/excel-choice';

type Scope = 'page' | 'all';
type ColumnChoice = 'visible' | 'all';

/** How long "downloads straight away" waits for a small export before handing it to /exports. */
const STRAIGHT_AWAY_MS = 30_000;
const POLL_MS = 700;
/** A job this dialog started; one that fits in the calls free right now is watched here. */
interface Started {
  job: ExportJob;
  fitsNow: boolean;
}

/** What the table shows: the query behind it, the rows in their displayed order, the visible columns. */
export interface TableView {
  query: TransactionsQuery | null;
  rows: readonly Cdr[];
  columns: readonly CdrFieldKey[];
  total: number | null;
}

export function DownloadCsvButton({ view }: { view: TableView }) {
  const t = useTranslations('exports.download');
  const say = useWords();
  const locale = useLocale();
  const f = useFormat();
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [scope, setScope] = useState<Scope>('page');
  const [columnChoice, setColumnChoice] = useState<ColumnChoice>('visible');
  const [excel, setExcel] = useState(false);
  const [pageDownloaded, setPageDownloaded] = useState<string | null>(null);
  const [started, setStarted] = useState<Started | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const saved = useRef<string | null>(null);
  const ids = { title: useId(), status: useId() };
  const estimate = useMutation(estimateExportMutation());
  const create = useMutation(createExportMutation(client));
  const watching = started?.fitsNow === true && !timedOut;
  const watched = useQuery({ ...exportQueryOptions(started?.job.id ?? '', POLL_MS), enabled: watching });
  const job = watched.data ?? started?.job ?? null;
  const done = started?.fitsNow && job?.state === 'done' && job._links.file ? job : null;

  // Past the wait, a small export that is not done yet is handed to the exports page.
  useEffect(() => {
    if (!started?.fitsNow) return;
    const timer = setTimeout(() => setTimedOut(true), STRAIGHT_AWAY_MS);
    return () => clearTimeout(timer);
  }, [started]);

  // The watched export is done: the browser downloads its file, once.
  useEffect(() => {
    if (done?._links.file && saved.current !== done.id) {
      saved.current = done.id;
      saveFile({ href: done._links.file.href });
    }
  }, [done]);

  const query = view.query;
  if (!query || view.total === null || view.total === 0) return null;
  const visible = [...view.columns];
  const allColumns = CDR_FIELDS.map((f) => f.key);
  const columns: CdrFieldKey[] = columnChoice === 'visible' ? visible : allColumns;
  const total = view.total;
  const bodyOf = (cols: CdrFieldKey[]) => ({
    ...queryBody(query),
    columns: cols,
    ...(excel ? { excel: true } : {}),
  });

  function reset() {
    estimate.reset();
    create.reset();
    setStarted(null);
    setTimedOut(false);
    setPageDownloaded(null);
  }

  function open() {
    reset();
    setExcel(rememberedExcel());
    dialog.current?.showModal();
    // The quota moves on between two openings: an estimate is always asked afresh.
    if (scope === 'all') estimate.mutate(bodyOf(columns));
  }

  function close() {
    dialog.current?.close();
  }

  async function downloadPage() {
    if (!query) return;
    // Lazily: the CSV writer is only needed on this click.
    const { recordsToCsv } = await import('@/lib/csv/csv');
    const text = recordsToCsv(view.rows as unknown as Record<string, unknown>[], columns, excel);
    // On a team's audit log, like every CSV (the server answers 204 for a personal session).
    await notePageCsv(queryBody(query), view.rows.length).catch(() => undefined);
    saveFile({ text, fileName: csvFileName(query, { page: query.page }) });
    setPageDownloaded(t('pageDone', { rows: view.rows.length }));
  }

  function start(fitsNow: boolean) {
    // The button pressed is disabled while the export runs, which would drop the focus to the page:
    // it goes to Close, the one thing left to do; the status above says how it goes.
    closeButton.current?.focus();
    create.mutate(bodyOf(columns), {
      onSuccess: (created) => setStarted({ job: created, fitsNow }),
    });
  }

  function chooseScope(next: Scope) {
    setScope(next);
    reset();
    if (next === 'all') estimate.mutate(bodyOf(columns));
  }

  function chooseExcel(next: boolean) {
    setExcel(next);
    rememberExcel(next);
  }

  function chooseColumns(next: ColumnChoice) {
    setColumnChoice(next);
    // The estimate does not depend on the columns, but the file name and request do: ask again.
    if (scope === 'all') {
      reset();
      estimate.mutate(bodyOf(next === 'visible' ? visible : allColumns));
    }
  }

  const ended = job !== null && !isActiveExportState(job.state);
  const preparing = watching && !ended;
  const inBackground = started !== null && !preparing && !done && !(ended && job?.state !== 'done');
  const downloaded = done
    ? t('allDone', { records: done.progress.recordsFetched, calls: done.progress.callsSpent })
    : pageDownloaded;
  const busy = estimate.isPending || create.isPending || preparing;
  const estimated: ExportEstimate | undefined =
    scope === 'all' && !create.isPending && !started ? estimate.data : undefined;
  const failure = estimate.error ?? create.error ?? (preparing ? watched.error : null);
  const gaveUp = ended && job && job.state !== 'done' ? (job.message ?? t('ended', { state: job.state })) : null;

  return (
    <>
      <button
        type="button"
        className="button button-small"
        onClick={open}
        data-testid="download-csv"
        aria-haspopup="dialog"
      >
        {t('button')}
      </button>
      <dialog
        ref={dialog}
        className={`${modal.dialog} ${styles.dialog}`}
        aria-labelledby={ids.title}
        data-testid="download-dialog"
        onClose={reset}
      >
        <form
          method="dialog"
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            if (scope === 'page') void downloadPage();
            else if (estimated) start(estimated.schedule.fitsNow);
          }}
        >
          <h2 id={ids.title} className={styles.title}>
            {t('title')}
          </h2>

          <fieldset className={styles.group}>
            <legend>{t('records')}</legend>
            <label className={styles.choice}>
              <input
                type="radio"
                name="scope"
                value="page"
                checked={scope === 'page'}
                onChange={() => chooseScope('page')}
                disabled={busy}
              />
              <span>
                {t('rowsOnScreen', { rows: f.count(view.rows.length) })}
                <span className={styles.hint}>Instant, no upstream call.</span>
              </span>
            </label>
            <label className={styles.choice}>
              <input
                type="radio"
                name="scope"
                value="all"
                checked={scope === 'all'}
                onChange={() => chooseScope('all')}
                disabled={busy}
              />
              <span>
                {t('allRecords', { count: total, total: f.count(total) })}
                <span className={styles.hint}>{t('allHint')}</span>
              </span>
            </label>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>{t('columns')}</legend>
            <label className={styles.choice}>
              <input
                type="radio"
                name="columns"
                value="visible"
                checked={columnChoice === 'visible'}
                onChange={() => chooseColumns('visible')}
                disabled={busy}
              />
              <span>{t('visibleColumns', { count: view.columns.length })}</span>
            </label>
            <label className={styles.choice}>
              <input
                type="radio"
                name="columns"
                value="all"
                checked={columnChoice === 'all'}
                onChange={() => chooseColumns('all')}
                disabled={busy}
              />
              <span>{t('allColumns', { count: CDR_FIELDS.length })}</span>
            </label>
          </fieldset>

          <label className={styles.choice}>
            <input
              type="checkbox"
              name="excel"
              checked={excel}
              onChange={(e) => chooseExcel(e.target.checked)}
              disabled={busy}
              data-testid="download-excel"
            />
            <span>
              {t('excel')}
              <span className={styles.hint}>{t('excelHint')}</span>
            </span>
          </label>

          <div id={ids.status} className={styles.status} aria-live="polite" data-testid="download-status">
            {scope === 'all' && estimate.isPending ? <p>{t('estimating')}</p> : null}
            {estimated ? <EstimateView estimate={estimated} /> : null}
            {create.isPending ? <p>{t('starting')}</p> : null}
            {preparing && job ? (
              <p>{t('preparing', { progress: say(progressText(job)), state: say(stateText(job, locale)) })}</p>
            ) : null}
            {inBackground && job ? (
              <p data-testid="export-started">
                {t.rich('background', {
                  state: say(stateText(job, locale)),
                  link: (chunks) => (
                    <Link href={PAGE_PATHS.exports} onClick={close}>
                      {chunks}
                    </Link>
                  ),
                })}
              </p>
            ) : null}
            {downloaded ? <p data-testid="download-done">{downloaded}</p> : null}
            {failure || gaveUp ? (
              <p className={styles.error} role="alert">
                {gaveUp ? say(gaveUp) : errorText(failure)}
              </p>
            ) : null}
          </div>

          <div className={styles.actions}>
            <button type="button" className="button" onClick={close} ref={closeButton}>
              {downloaded || started ? t('close') : t('cancel')}
            </button>
            {scope === 'page' ? (
              <button type="submit" className="button button-primary" data-testid="download-confirm">
                {t('downloadRows', { rows: view.rows.length })}
              </button>
            ) : (
              <button
                type="submit"
                className="button button-primary"
                disabled={!estimated || busy}
                data-testid="download-confirm"
              >
                {estimated?.schedule.fitsNow ? t('downloadNow') : t('start')}
              </button>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}

function EstimateView({ estimate }: { estimate: ExportEstimate }) {
  const t = useTranslations('exports.estimate');
  const say = useWords();
  const records =
    estimate.records === null
      ? t('unknownRecords')
      : t('records', { about: estimate.recordsKnown === 'approximate' ? 'yes' : 'no', count: estimate.records });
  return (
    <div className={styles.estimate} data-testid="export-estimate">
      <p>
        <strong>{records}</strong>
        {t('calls', { calls: estimate.calls, size: estimate.pageSize, cached: estimate.pagesCached })}
      </p>
      <p>{say(estimate.summary)}</p>
      {estimate.warnings.length > 0 ? (
        <ul className={styles.warnings}>
          {estimate.warnings.map(say).map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
