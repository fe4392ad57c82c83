'use client';
/**
 * A reconciliation under way or over: its state, rows answered of the list, calls spent of those
 * planned, why it waits (quota, a sign-in, the upstream), what happened on the way (a window split,
 * a cheaper way taken), and the answered file. A change of state is announced to screen readers.
 */
import { useTranslations } from 'next-intl';
import { useFormat } from '@/lib/i18n/use-format';
import { isActiveReconcileState, type Reconciliation } from '@/lib/reconcile';
import { ProgressBar } from '../common/progress-bar';
import facts from '../common/facts.module.css';
import badge from '../common/state-badge.module.css';
import { AnswerDownload } from './answer-download';
import { ForgetButton } from './forget-button';
import styles from './reconcile.module.css';

const TONE: Record<Reconciliation['state'], string> = {
  planned: 'waiting',
  queued: 'active',
  running: 'active',
  waiting: 'waiting',
  done: 'done',
  failed: 'stopped',
};

export function RunStatus({ r, onForgotten }: { r: Reconciliation; onForgotten: () => void }) {
  const t = useTranslations('reconcile.run');
  const f = useFormat();
  const { progress, plan } = r;
  const percent = progress.rows === 0 ? 100 : Math.floor((100 * progress.answered) / progress.rows);
  const active = isActiveReconcileState(r.state);
  const until = r.message?.until ? f.instant(new Date(r.message.until), r.tz) : '';
  return (
    <section className={`panel ${styles.run}`} aria-labelledby="reconcile-run-title" data-testid="reconcile-run">
      <header className={styles.runHead}>
        <h2 id="reconcile-run-title" className={styles.heading}>
          {r.source ?? t('untitled')}
        </h2>
        <span className={`${badge.badge} ${styles.state}`} data-tone={TONE[r.state]} data-testid="reconcile-state">
          {t(`state.${r.state}`)}
        </span>
      </header>
      <p className="visually-hidden" aria-live="polite">
        {t(`state.${r.state}`)}
      </p>
      <ProgressBar
        className={styles.progress}
        percent={percent}
        text={t('answered', { answered: f.count(progress.answered), rows: f.count(progress.rows) })}
        label={{ 'aria-labelledby': 'reconcile-run-title' }}
        tone={r.state === 'done' ? 'success' : 'accent'}
        textTestId="reconcile-progress"
      />
      <dl className={`${facts.facts} ${styles.facts}`}>
        <div>
          <dt>{t('calls')}</dt>
          <dd data-testid="reconcile-calls">
            {active
              ? t('callsOf', { spent: f.count(progress.callsSpent), left: f.count(progress.callsLeft) })
              : t('callsSpent', { spent: f.count(progress.callsSpent) })}
          </dd>
        </div>
        <div>
          <dt>{t('local')}</dt>
          <dd>{f.count(plan.local)}</dd>
        </div>
        {progress.pagesCached > 0 ? (
          <div>
            <dt>{t('cached')}</dt>
            <dd>{f.count(progress.pagesCached)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('queries')}</dt>
          <dd>{t('queriesOf', { done: f.count(progress.tasksDone), total: f.count(progress.tasksTotal) })}</dd>
        </div>
        {r.range ? (
          <div>
            <dt>{t('range')}</dt>
            <dd className="mono">
              {r.range.dateFrom} – {r.range.dateTo} {r.tz}
            </dd>
          </div>
        ) : null}
      </dl>
      {active && progress.eta ? (
        <p className={styles.hint} data-testid="reconcile-eta">
          {t('eta', { eta: f.instant(new Date(progress.eta), r.tz), zone: r.tz })}
        </p>
      ) : null}
      {r.message ? (
        <p
          className={styles.message}
          data-tone={r.state === 'failed' ? 'danger' : 'info'}
          data-testid="reconcile-message"
        >
          {t(`message.${r.message.code}`, {
            until,
            attempt: r.message.attempt ?? 0,
            attempts: r.message.attempts ?? 0,
            status: r.message.status ?? '',
          })}
        </p>
      ) : null}
      {r.notes.length > 0 ? (
        <ul className={styles.notes} data-testid="reconcile-notes">
          {r.notes.map((n, i) => (
            <li key={i}>
              {t(`note.${n.code}`, {
                window: n.dateFrom ? `${n.dateFrom} – ${n.dateTo} ${r.tz}` : '',
                records: f.count(n.figures?.records ?? 0),
                windows: n.figures?.windows ?? 0,
                pagesLeft: f.count(n.figures?.pagesLeft ?? 0),
                calls: f.count(n.figures?.calls ?? 0),
                page: n.figures?.page ?? 0,
                from: f.count(n.figures?.from ?? 0),
                to: f.count(n.figures?.to ?? 0),
              })}
            </li>
          ))}
        </ul>
      ) : null}
      <div className={styles.actions}>
        <AnswerDownload r={r} />
        <ForgetButton id={r.id} onForgotten={onForgotten} running={active} />
      </div>
    </section>
  );
}
