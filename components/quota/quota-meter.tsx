'use client';
/**
 * The header's quota meter: upstream calls left this minute, hour and day for the signed-in
 * account, and a countdown to the next free call when none is left. It refreshes every ~15 s while
 * the tab is visible and whenever a search answers (the endpoint costs no upstream call).
 */
import { useTranslations } from 'next-intl';
import type { QuotaWindow } from '@/lib/governor';
import { formatCountdown } from '@/lib/i18n/format';
import { bindingSharedWindows, quotaWaitUntil } from '@/lib/governor';
import { useCountdown } from '../common/use-countdown';
import styles from './quota-meter.module.css';
import { useQuota } from './use-quota';

function level(w: QuotaWindow): 'empty' | 'low' | 'ok' {
  if (w.remaining <= 0) return 'empty';
  return w.remaining / w.limit <= 0.34 ? 'low' : 'ok';
}

export function QuotaMeter() {
  const t = useTranslations('quota');
  const { quota: data, isError, refetch } = useQuota();
  const until = data ? quotaWaitUntil(data) : null;
  const left = useCountdown(until, () => void refetch());

  if (!data) {
    return (
      <div className={styles.meter} aria-busy={!isError}>
        <span className={styles.title}>{isError ? t('unavailable') : t('loading')}</span>
      </div>
    );
  }

  const waiting = left !== null && left > 0;
  const binding = bindingSharedWindows(data);
  const windowsLeft = (windows: QuotaWindow[]) =>
    windows
      .map((w) => t('windowLeft', { remaining: w.remaining, limit: w.limit, window: t(`window.${w.name}`) }))
      .join(t('listSeparator'));
  const summary = t('summary', { windows: windowsLeft(data.windows) });
  const shared = binding.length > 0 ? t('sharedSummary', { windows: windowsLeft(binding) }) : '';
  return (
    <div
      className={styles.meter}
      role="group"
      aria-label={t('label')}
      data-testid="quota-meter"
      title={`${summary}${shared}`}
    >
      <span className={styles.title} aria-hidden="true">
        {t('title')}
      </span>
      {data.windows.map((w) => (
        <span key={w.name} className={styles.window} data-level={level(w)} data-window={w.name}>
          <span className={styles.count}>
            {w.remaining}
            <span className={styles.limit}>/{w.limit}</span>
          </span>
          <span className={styles.name}>{t(`short.${w.name}`)}</span>
          <span className={styles.bar} aria-hidden="true">
            <span style={{ width: `${Math.round((100 * Math.max(0, w.remaining)) / Math.max(1, w.limit))}%` }} />
          </span>
          <span className="visually-hidden"> {t('leftOf', { window: t(`window.${w.name}`), limit: w.limit })}</span>
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
          <span className={styles.name}>{t('sharedShort', { window: t(`short.${w.name}`) })}</span>
          <span className="visually-hidden"> {t('sharedLeft', { window: t(`window.${w.name}`) })}</span>
        </span>
      ))}
      {waiting ? (
        <span className={styles.wait} data-testid="quota-wait">
          {t('nextFreeCall')}{' '}
          <span className="mono" role="timer">
            {formatCountdown(left)}
          </span>
        </span>
      ) : null}
      {data.inFlight > 0 || data.queued.interactive > 0 ? (
        <span className={styles.busy}>
          {data.inFlight > 0 ? t('inProgress') : t('waiting', { count: data.queued.interactive })}
        </span>
      ) : null}
    </div>
  );
}
