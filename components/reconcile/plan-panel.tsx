'use client';
/**
 * A reconciliation's plan before any call: the rows the local history answered (already answered,
 * free), what the rest costs in calls and time at the account's background rate, how each window
 * is read, and against that what one lookup per row would cost. Start runs it; Delete forgets it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { errorText } from '@/lib/http/api-client';
import { useFormat } from '@/lib/i18n/use-format';
import type { ReconcilePlan, Reconciliation } from '@/lib/reconcile';
import { startReconciliationMutation } from '@/lib/reconcile/client';
import { ForgetButton } from './forget-button';
import styles from './reconcile.module.css';

/** "37 calls, about 4 h at what is left today", or why it is a lower bound or an estimate. */
export function useCostWords(): (plan: ReconcilePlan) => string {
  const t = useTranslations('reconcile.plan');
  const f = useFormat();
  return (plan) => {
    if (plan.calls === 0) return t('free');
    const when =
      plan.durationMs === null
        ? t('never', { reserve: plan.reserve })
        : t('takes', { duration: f.duration(plan.durationMs) });
    const values = { calls: plan.calls, callsText: f.count(plan.calls), atMost: f.count(plan.callsAtMost), when };
    return t(`cost.${plan.callsKnown}`, values);
  };
}

export function PlanPanel({ r, onForgotten }: { r: Reconciliation; onForgotten: () => void }) {
  const t = useTranslations('reconcile.plan');
  const f = useFormat();
  const client = useQueryClient();
  const start = useMutation(startReconciliationMutation(client));
  const cost = useCostWords();
  const { plan } = r;
  return (
    <section
      className={`panel ${styles.plan}`}
      aria-labelledby="reconcile-plan-title"
      data-testid="reconcile-plan-panel"
    >
      <h2 id="reconcile-plan-title" className={styles.heading}>
        {t('title', { name: r.source ?? t('untitled') })}
      </h2>
      <p data-testid="plan-rows">
        {t('rows', {
          rows: plan.rows,
          rowsText: f.count(plan.rows),
          local: f.count(plan.local),
          invalid: f.count(plan.invalid),
          upstream: f.count(plan.upstream),
        })}
      </p>
      <p className={styles.cost} data-testid="plan-cost">
        {cost(plan)}
      </p>
      {plan.upstream > 0 ? (
        <p className={styles.hint} data-testid="plan-one-by-one">
          {t('oneByOne', { calls: plan.callsOneByOne, callsText: f.count(plan.callsOneByOne) })}{' '}
          {t('rate', { perHour: plan.perHour, perDay: plan.perDay, reserve: plan.reserve })}
        </p>
      ) : null}
      {plan.windows.length > 0 ? (
        <table className={styles.windows} data-testid="plan-windows">
          <caption className="visually-hidden">{t('windowsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('window')}</th>
              <th scope="col">{t('how')}</th>
              <th scope="col" className={styles.number}>
                {t('windowRows')}
              </th>
              <th scope="col" className={styles.number}>
                {t('records')}
              </th>
              <th scope="col" className={styles.number}>
                {t('calls')}
              </th>
            </tr>
          </thead>
          <tbody>
            {plan.windows.map((w) => (
              <tr key={`${w.dateFrom}-${w.strategy}`}>
                <td className="mono">
                  {w.dateFrom} – {w.dateTo} {r.tz}
                </td>
                <td>{t(`strategy.${w.strategy}`)}</td>
                <td className={styles.number}>{f.count(w.rows)}</td>
                <td className={styles.number}>
                  {w.records === null
                    ? t('recordsUnknown')
                    : w.recordsKnown === 'estimate'
                      ? t('recordsAbout', { records: f.count(w.records) })
                      : f.count(w.records)}
                </td>
                <td className={styles.number}>{f.count(w.calls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {plan.windowsNotShown > 0 ? <p className={styles.hint}>{t('windowsMore', { n: plan.windowsNotShown })}</p> : null}
      {start.error ? (
        <p className={styles.error} role="alert">
          {errorText(start.error)}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button
          type="button"
          className="button button-primary"
          disabled={start.isPending}
          onClick={() => start.mutate(r.id)}
          data-testid="reconcile-start"
        >
          {plan.calls === 0 ? t('startFree') : t('start', { calls: plan.calls, callsText: f.count(plan.calls) })}
        </button>
        <ForgetButton id={r.id} onForgotten={onForgotten} />
      </div>
    </section>
  );
}
