'use client';
/**
 * Each row of the list and its answer, in the upload's order, a page at a time: the record found
 * (status, DLR code and meaning, network, times in the reconciliation's zone, latency, parts,
 * price), every record of a reference or number found several times, or why a row could not be
 * read. The summary's figures filter it; the filter lives in the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { errorText } from '@/lib/http/api-client';
import { useFormat } from '@/lib/i18n/use-format';
import {
  isActiveReconcileState,
  type AnswerRecord,
  type Outcome,
  type Reconciliation,
  type ReconcileRow,
} from '@/lib/reconcile';
import { reconcileRowsQueryOptions } from '@/lib/reconcile/client';
import { StatusBadge } from '../cdr/status-badge';
import { useDlrWords } from './use-dlr-words';
import styles from './reconcile.module.css';

type View = { outcome: Outcome | 'pending' | null; status: string | null; page: number };

export function ReconcileRows({
  r,
  view,
  onView,
}: {
  r: Reconciliation;
  view: View;
  onView: (v: Partial<View>) => void;
}) {
  const t = useTranslations('reconcile.rows');
  const f = useFormat();
  const { data, error, isPlaceholderData } = useQuery(
    reconcileRowsQueryOptions(r.id, view, isActiveReconcileState(r.state)),
  );
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const filterText = view.status
    ? t('filteredStatus', { status: view.status })
    : view.outcome
      ? t('filtered', { outcome: t(`outcome.${view.outcome}`) })
      : null;
  return (
    <section className={`panel ${styles.rows}`} aria-labelledby="reconcile-rows-title" data-testid="reconcile-rows">
      <header className={styles.rowsHead}>
        <h2 id="reconcile-rows-title" className={styles.heading}>
          {t('title')}
        </h2>
        {filterText ? (
          <span className={styles.filter} data-testid="rows-filter">
            {filterText}{' '}
            <button
              type="button"
              className="button button-small button-ghost"
              onClick={() => onView({ outcome: null, status: null, page: 1 })}
            >
              {t('showAll')}
            </button>
          </span>
        ) : null}
        {data ? (
          <span className={styles.hint} aria-live="polite">
            {t('count', { total: data.total, totalText: f.count(data.total) })}
          </span>
        ) : null}
      </header>
      {error ? (
        <p className={styles.error} role="alert">
          {errorText(error)}
        </p>
      ) : null}
      {/* Scrolls sideways on a narrow screen: a keyboard can reach and scroll it too. */}
      <div
        className={styles.tableWrap}
        aria-busy={isPlaceholderData}
        role="region"
        aria-labelledby="reconcile-rows-title"
        tabIndex={0}
      >
        <table className={styles.table} data-testid="rows-table">
          <thead>
            <tr>
              <th scope="col" className={styles.number}>
                {t('row')}
              </th>
              <th scope="col">{t(`value.${r.kind}`)}</th>
              <th scope="col">{t('answer')}</th>
              {r.kind !== 'trx_id' ? <th scope="col">{t('trxId')}</th> : null}
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('dlr')}</th>
              <th scope="col">{t('network')}</th>
              <th scope="col">{t('received', { zone: r.tz })}</th>
              <th scope="col">{t('delivered', { zone: r.tz })}</th>
              <th scope="col" className={styles.number}>
                {t('latency')}
              </th>
              <th scope="col" className={styles.number}>
                {t('parts')}
              </th>
              <th scope="col" className={styles.number}>
                {t('price')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.rows.map((row) => (
              <Row key={row.row} row={row} r={r} />
            ))}
            {data && data.rows.length === 0 ? (
              <tr>
                <td colSpan={12} className={styles.empty}>
                  {t('none')}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav className={styles.pager} aria-label={t('pages')}>
          <button
            type="button"
            className="button button-small"
            disabled={view.page <= 1}
            onClick={() => onView({ page: view.page - 1 })}
            data-testid="rows-previous"
          >
            {t('previous')}
          </button>
          <span>{t('page', { page: f.count(view.page), pages: f.count(pages) })}</span>
          <button
            type="button"
            className="button button-small"
            disabled={view.page >= pages}
            onClick={() => onView({ page: view.page + 1 })}
            data-testid="rows-next"
          >
            {t('next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

const OUTCOME_TONE: Record<ReconcileRow['outcome'], string> = {
  matched: 'done',
  several: 'waiting',
  not_found: 'stopped',
  invalid: 'stopped',
  pending: 'active',
};

function Row({ row, r }: { row: ReconcileRow; r: Reconciliation }) {
  const t = useTranslations('reconcile.rows');
  const f = useFormat();
  const dlr = useDlrWords();
  const records = row.records;
  const cells = (pick: (rec: AnswerRecord) => React.ReactNode) =>
    records.length <= 1 ? (
      records[0] ? (
        pick(records[0])
      ) : null
    ) : (
      <ul className={styles.stack}>
        {records.map((rec) => (
          <li key={rec.trx_id}>{pick(rec)}</li>
        ))}
      </ul>
    );
  return (
    <tr data-outcome={row.outcome} data-testid="reconcile-row">
      <td className={styles.number}>{row.row}</td>
      <td className="mono">{row.value || row.input[Object.keys(row.input)[0] ?? ''] || '—'}</td>
      <td>
        <span className={styles.outcome} data-tone={OUTCOME_TONE[row.outcome]}>
          {row.outcome === 'several' ? t('severalOf', { n: records.length }) : t(`outcome.${row.outcome}`)}
        </span>
        {row.problem ? <span className={styles.problem}>{row.problem.detail}</span> : null}
      </td>
      {r.kind !== 'trx_id' ? <td className="mono">{cells((rec) => rec.trx_id)}</td> : null}
      <td>
        {cells((rec) => (
          <StatusBadge value={rec.delivery_status} />
        ))}
      </td>
      <td>
        {cells((rec) =>
          rec.dlr_error_code ? (
            <span title={dlr(rec.dlr_error_code) ?? undefined}>
              <span className="mono">{rec.dlr_error_code}</span>{' '}
              <span className={styles.meaning}>{dlr(rec.dlr_error_code)}</span>
            </span>
          ) : (
            '—'
          ),
        )}
      </td>
      <td translate="no">{cells((rec) => rec.network_name || '—')}</td>
      <td className="mono">{cells((rec) => f.timestamp(rec.date_received, r.tz))}</td>
      <td className="mono">{cells((rec) => f.timestamp(rec.date_delivered, r.tz))}</td>
      <td className={styles.number}>{cells((rec) => (rec.latency_ms === null ? '—' : f.duration(rec.latency_ms)))}</td>
      <td className={styles.number}>{cells((rec) => rec.how_many_message_parts ?? '—')}</td>
      <td className={styles.number}>{cells((rec) => (rec.price ? f.price(rec.price, rec.price_currency) : '—'))}</td>
    </tr>
  );
}
