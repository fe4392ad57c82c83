'use client';
/**
 * The header's quota meter: upstream calls left this minute, hour and day for the signed-in
 * account, and a countdown to the next free call when none is left. It refreshes every ~15 s while
 * the tab is visible and whenever a search answers (the endpoint costs no upstream call).
 */
import type { QuotaWindow } from '@/lib/governor';
import { formatCountdown } from '@/lib/i18n/format';
import { bindingSharedWindows, quotaWaitUntil, WINDOW_WORDS } from '@/lib/governor';
import { useCountdown } from '../common/use-countdown';
import styles from './quota-meter.module.css';
import { useQuota } from './use-quota';

const SHORT: Record<QuotaWindow['name'], string> = { minute: 'min', hour: 'hour', day: 'day' };

function level(w: QuotaWindow): 'empty' | 'low' | 'ok' {
  if (w.remaining <= 0) return 'empty';
  return w.remaining / w.limit <= 0.34 ? 'low' : 'ok';
}

export function QuotaMeter() {
  const { quota: data, isError, refetch } = useQuota();
  const until = data ? quotaWaitUntil(data) : null;
  const left = useCountdown(until, () => void refetch());

  if (!data) {
    return (
      <div className={styles.meter} aria-busy={!isError}>
        <span className={styles.title}>{isError ? 'Quota unavailable' : 'Quota…'}</span>
      </div>
    );
  }

  const waiting = left !== null && left > 0;
  const binding = bindingSharedWindows(data);
  const summary = data.windows.map((w) => `${w.remaining} of ${w.limit} ${WINDOW_WORDS[w.name]}`).join(', ');
  const shared =
    binding.length > 0
      ? ` Shared by every account of this dashboard: ${binding.map((w) => `${w.remaining} of ${w.limit} ${WINDOW_WORDS[w.name]}`).join(', ')}.`
      : '';
  return (
    <div
      className={styles.meter}
      role="group"
      aria-label="Upstream calls left"
      data-testid="quota-meter"
      title={`Upstream calls left: ${summary}.${shared}`}
    >
      <span className={styles.title} aria-hidden="true">
        Calls left
      </span>
      {data.windows.map((w) => (
        <span key={w.name} className={styles.window} data-level={level(w)} data-window={w.name}>
          <span className={styles.count}>
            {w.remaining}
            <span className={styles.limit}>/{w.limit}</span>
          </span>
          <span className={styles.name}>{SHORT[w.name]}</span>
          <span className={styles.bar} aria-hidden="true">
            <span style={{ width: `${Math.round((100 * Math.max(0, w.remaining)) / Math.max(1, w.limit))}%` }} />
          </span>
          <span className="visually-hidden">
            {' '}
            calls left {WINDOW_WORDS[w.name]} of {w.limit}
          </span>
        </span>
      ))}
      {binding.map((w) => (
        <span
          key={`shared-${w.name}`}
          className={styles.window}
          data-level={level(w)}
          data-window={`shared-${w.name}`}
          data-testid="quota-shared"
        >
          <span className={styles.count}>
            {w.remaining}
            <span className={styles.limit}>/{w.limit}</span>
          </span>
          <span className={styles.name}>shared {SHORT[w.name]}</span>
          <span className="visually-hidden">
            {' '}
            calls left {WINDOW_WORDS[w.name]} for every account of this dashboard together
          </span>
        </span>
      ))}
      {waiting ? (
        <span className={styles.wait} data-testid="quota-wait">
          Next free call in{' '}
          <span className="mono" role="timer">
            {formatCountdown(left)}
          </span>
        </span>
      ) : null}
      {data.inFlight > 0 || data.queued.interactive > 0 ? (
        <span className={styles.busy}>
          {data.inFlight > 0 ? 'Call in progress' : `${data.queued.interactive} waiting`}
        </span>
      ) : null}
    </div>
  );
}
