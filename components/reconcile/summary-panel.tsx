'use client';
/**
 * The summary on top of the rows: rows by outcome, the records found by status, the delivery rate,
 * parts and cost per currency, and against what the upload expected (a count, a cost, per day).
 * Every count of rows is a button: a click shows those rows below (a second click, all of them).
 */
import { useTranslations } from 'next-intl';
import { DELIVERY_STATUS_VALUES } from '@/lib/cdr/status';
import { useFormat } from '@/lib/i18n/use-format';
import { OUTCOMES, type Outcome, type Reconciliation } from '@/lib/reconcile';
import type { CostVariance, VarianceFigure } from '@/lib/reconcile';
import { StatusBadge } from '../cdr/status-badge';
import { useFigures } from './use-figures';
import styles from './reconcile.module.css';

type View = { outcome: Outcome | 'pending' | null; status: string | null };

export function SummaryPanel({
  r,
  view,
  onFilter,
}: {
  r: Reconciliation;
  view: View;
  onFilter: (next: Partial<View>) => void;
}) {
  const t = useTranslations('reconcile.summary');
  const f = useFormat();
  const g = useFigures();
  const s = r.summary;
  const toggle = (next: View) => onFilter(view.outcome === next.outcome && view.status === next.status ? {} : next);
  const figure = (outcome: Outcome | 'pending', count: number) => (
    <button
      key={outcome}
      type="button"
      className={styles.figure}
      data-outcome={outcome}
      aria-pressed={view.outcome === outcome && view.status === null}
      onClick={() => toggle({ outcome, status: null })}
      data-testid={`figure-${outcome}`}
    >
      <span className={styles.figureValue}>{f.count(count)}</span>
      <span className={styles.figureLabel}>{t(`outcome.${outcome}`)}</span>
    </button>
  );
  const statuses = [
    ...DELIVERY_STATUS_VALUES,
    ...Object.keys(s.byStatus).filter((k) => !DELIVERY_STATUS_VALUES.includes(k as never)),
  ].filter((status) => (s.byStatus[status] ?? 0) > 0);
  return (
    <section
      className={`panel ${styles.summary}`}
      aria-labelledby="reconcile-summary-title"
      data-testid="reconcile-summary"
    >
      <h2 id="reconcile-summary-title" className={styles.heading}>
        {t('title')}
      </h2>
      <div className={styles.figures} role="group" aria-label={t('outcomes')}>
        {OUTCOMES.map((o) => figure(o, s.outcomes[o]))}
        {s.pending > 0 ? figure('pending', s.pending) : null}
      </div>
      {statuses.length > 0 ? (
        <div className={styles.statuses} role="group" aria-label={t('byStatus')}>
          {statuses.map((status) => (
            <button
              key={status}
              type="button"
              className={styles.statusFigure}
              aria-pressed={view.status === status}
              onClick={() => toggle({ outcome: 'matched', status })}
              title={t('statusFilter', { status })}
              data-testid={`status-${status}`}
            >
              <StatusBadge value={status} />
              <span className={styles.figureValue}>{f.count(s.byStatus[status] ?? 0)}</span>
            </button>
          ))}
        </div>
      ) : null}
      <dl className={styles.totals}>
        <div>
          <dt>{t('records')}</dt>
          <dd data-testid="summary-records">{f.count(s.records)}</dd>
        </div>
        <div>
          <dt>{t('deliveryRate')}</dt>
          <dd data-testid="summary-rate">
            {s.deliveryRate === null
              ? t('none')
              : t('rate', { rate: g.rate(s.deliveryRate), delivered: f.count(s.delivered) })}
          </dd>
        </div>
        <div>
          <dt>{t('parts')}</dt>
          <dd>{f.count(s.parts)}</dd>
        </div>
        <div>
          <dt>{t('cost')}</dt>
          <dd data-testid="summary-cost">
            {s.cost.length === 0 ? t('none') : s.cost.map((c) => f.price(c.total, c.currency)).join(' · ')}
          </dd>
        </div>
        {s.repeated > 0 ? (
          <div>
            <dt>{t('repeated')}</dt>
            <dd title={t('repeatedHint')}>{f.count(s.repeated)}</dd>
          </div>
        ) : null}
      </dl>
      <Variance r={r} />
    </section>
  );
}

function Variance({ r }: { r: Reconciliation }) {
  const t = useTranslations('reconcile.summary');
  const f = useFormat();
  const g = useFigures();
  const { count, cost, byDay } = r.summary.variance;
  if (!count && !cost && byDay.length === 0) return null;
  const countText = (v: VarianceFigure) =>
    t('varianceCount', {
      actual: f.count(v.actual),
      expected: f.count(v.expected),
      difference: g.signed(v.difference),
      percent: v.percent === null ? '—' : g.signedPercent(v.percent),
    });
  const costText = (v: CostVariance) =>
    t('varianceCost', {
      actual: f.price(v.actual, v.currency),
      expected: f.price(v.expected, v.currency),
      difference: g.signedPrice(v.difference, v.currency),
      percent: v.percent === null ? '—' : g.signedPercent(v.percent),
    });
  return (
    <div className={styles.variance} data-testid="reconcile-variance">
      <h3 className={styles.subheading}>{t('variance')}</h3>
      {count ? <p data-testid="variance-count">{countText(count)}</p> : null}
      {cost ? <p data-testid="variance-cost">{costText(cost)}</p> : null}
      {byDay.length > 0 ? (
        <table className={styles.days}>
          <caption className="visually-hidden">{t('byDayCaption', { zone: r.tz })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day', { zone: r.tz })}</th>
              <th scope="col">{t('dayRows')}</th>
              {byDay.some((d) => d.cost) ? <th scope="col">{t('dayCost')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {byDay.map((d) => (
              <tr key={d.day}>
                <th scope="row">{f.day(d.day)}</th>
                <td>{countText(d.count)}</td>
                {d.cost ? <td>{costText(d.cost)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
