/**
 * What the calendar's colours mean, with how many days are in each state. The states carry a mark
 * too (tick, arrows, dots, hatching), so no one needs to tell the colours apart.
 */
import type { HistoryDay } from '@/lib/history';
import { DAY_STATE_WORDS } from '@/lib/history';
import styles from './history-calendar.module.css';

const ORDER: readonly HistoryDay['state'][] = ['complete', 'syncing', 'waiting', 'pending', 'unsettled'];

export function CalendarLegend({ days }: { days: readonly HistoryDay[] }) {
  return (
    <ul className={styles.legend} aria-label="Legend" data-testid="history-legend">
      {ORDER.map((state) => {
        const count = days.filter((d) => d.state === state).length;
        const words = DAY_STATE_WORDS[state];
        return (
          <li key={state} data-state={state}>
            <span className={styles.swatch} data-state={state} aria-hidden="true" />
            {words.charAt(0).toUpperCase() + words.slice(1)} ({count} {count === 1 ? 'day' : 'days'})
          </li>
        );
      })}
    </ul>
  );
}
