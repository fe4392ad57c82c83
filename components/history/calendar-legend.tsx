'use client';
/**
 * What the calendar's colours mean, with how many days are in each state. The states carry a mark
 * too (tick, arrows, dots, hatching), so no one needs to tell the colours apart.
 */
import { useTranslations } from 'next-intl';
import type { HistoryDay } from '@/lib/history';
import styles from './history-calendar.module.css';

const ORDER: readonly HistoryDay['state'][] = ['complete', 'syncing', 'waiting', 'pending', 'unsettled'];

export function CalendarLegend({ days }: { days: readonly HistoryDay[] }) {
  const t = useTranslations('history');
  return (
    <ul className={styles.legend} aria-label={t('calendar.legend')} data-testid="history-legend">
      {ORDER.map((state) => {
        const words = t(`day.${state}`);
        return (
          <li key={state} data-state={state}>
            <span className={styles.swatch} data-state={state} aria-hidden="true" />
            {t('calendar.legendItem', {
              state: words.charAt(0).toUpperCase() + words.slice(1),
              n: days.filter((d) => d.state === state).length,
            })}
          </li>
        );
      })}
    </ul>
  );
}
