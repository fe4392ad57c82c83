'use client';
/**
 * The line above the table: how many records, which page, and where they came from — the cache
 * (no call spent, and how old) or the upstream just now — plus what is still loading.
 */
import { useQuery } from '@tanstack/react-query';
import type { TransactionsMeta } from '@/lib/api/types';
import { formatAge, formatCount, formatCountdown } from '@/lib/ui/format';
import { quotaQueryOptions } from '@/lib/ui/queries';
import { quotaWaitUntil } from '@/lib/ui/quota';
import { useCountdown } from '../common/use-countdown';
import styles from './transactions-view.module.css';

export function SourceTag({ meta }: { meta: Pick<TransactionsMeta, 'source' | 'ageSeconds' | 'calls'> }) {
  if (meta.source === 'cache') {
    return (
      <span className={styles.source} data-source="cache" data-testid="result-source" title="Served by the dashboard’s cache: no upstream call was spent.">
        From cache, {formatAge(meta.ageSeconds)}
      </span>
    );
  }
  return (
    <span className={styles.source} data-source="upstream" data-testid="result-source" title="Fetched from the upstream for this view.">
      From the upstream · {meta.calls === 1 ? '1 call' : `${meta.calls} calls`} used
    </span>
  );
}

/** "Loading page 3…", or while the request waits its turn, how long until the next free call. */
export function LoadingNotice({ text }: { text: string }) {
  const { data: quota } = useQuery(quotaQueryOptions());
  const left = useCountdown(quota ? quotaWaitUntil(quota) : null) ?? 0;
  return (
    <span className={styles.loading} role="status" data-testid="loading-notice">
      <span className={styles.spinner} aria-hidden="true" />
      {left > 0 ? (
        <>
          Waiting for the upstream’s next free call:{' '}
          <span className="mono" role="timer">
            {formatCountdown(left)}
          </span>
        </>
      ) : (
        text
      )}
    </span>
  );
}

export function RecordCount({ total }: { total: number }) {
  return (
    <strong className={styles.count} data-testid="record-count">
      {formatCount(total)} {total === 1 ? 'record' : 'records'}
    </strong>
  );
}
