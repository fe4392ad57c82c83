'use client';
/**
 * The History page: what the local history is, how far the sync has come, its controls and the
 * calendar of its days. Reads GET /api/history, polled while the copy is under way; times are shown
 * in the page's zone (`tz` in the URL, as on the other pages).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { parseAsString, useQueryStates } from 'nuqs';
import { errorText } from '@/lib/http/api-client';
import { historyQueryOptions } from '@/lib/history/client';
import { zoneOf } from '@/lib/query/page-url';
import { ZoneToggle } from '../common/zone-toggle';
import { HistoryCalendar } from './history-calendar';
import { HistoryControls } from './history-controls';
import { HistoryIntro } from './history-intro';
import { HistorySummary } from './history-summary';
import frame from '../common/page-frame.module.css';
import styles from './history-view.module.css';
import { usePreferredZone } from '../common/preferred-zone';

export function HistoryView() {
  const t = useTranslations('history');
  const [url, setUrl] = useQueryStates({ tz: parseAsString });
  const zone = zoneOf(url, usePreferredZone().zone);
  const { data, error, isPending } = useQuery(historyQueryOptions());

  return (
    <div className={styles.page} data-testid="history-page">
      <header className={frame.titleRow}>
        <h1 className={frame.title}>{t('title')}</h1>
        <ZoneToggle zone={zone} onChange={(tz) => void setUrl({ tz })} />
      </header>
      <HistoryIntro className={styles.intro} />
      {error && !data ? (
        <p className={styles.error} role="alert">
          {t('readFailed', { reason: errorText(error) })}
        </p>
      ) : null}
      {isPending ? <p aria-busy="true">{t('loading')}</p> : null}
      {data ? (
        <>
          <HistorySummary state={data} zone={zone} />
          <HistoryControls state={data} />
          <HistoryCalendar days={data.days} zone={zone} />
        </>
      ) : null}
    </div>
  );
}
