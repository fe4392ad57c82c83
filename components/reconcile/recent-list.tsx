'use client';
/** The account's reconciliations, newest first: a click opens one (its plan, its run, its answers). */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useFormat } from '@/lib/i18n/use-format';
import { reconciliationsQueryOptions } from '@/lib/reconcile/client';
import badge from '../common/state-badge.module.css';
import styles from './reconcile.module.css';

const TONE = {
  planned: 'waiting',
  queued: 'active',
  running: 'active',
  waiting: 'waiting',
  done: 'done',
  failed: 'stopped',
};

export function RecentList({ onOpen }: { onOpen: (id: string) => void }) {
  const t = useTranslations('reconcile.recent');
  const tr = useTranslations('reconcile.run');
  const f = useFormat();
  const { data } = useQuery(reconciliationsQueryOptions());
  if (!data || data.length === 0) return null;
  return (
    <section className={styles.recent} aria-labelledby="reconcile-recent-title">
      <h2 id="reconcile-recent-title" className={styles.heading}>
        {t('title')}
      </h2>
      <ul className={styles.recentList} data-testid="reconcile-recent">
        {data.map((r) => (
          <li key={r.id}>
            <button type="button" className={styles.recentItem} onClick={() => onOpen(r.id)}>
              <span className={styles.recentName}>{r.source ?? tr('untitled')}</span>
              <span className={styles.hint}>
                {t('line', {
                  rows: f.count(r.plan.rows),
                  kind: t(`kind.${r.kind}`),
                  made: f.instant(new Date(r.createdAt), r.tz),
                  zone: r.tz,
                })}
              </span>
              <span className={`${badge.badge} ${styles.state}`} data-tone={TONE[r.state]}>
                {tr(`state.${r.state}`)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
