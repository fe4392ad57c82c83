'use client';
/**
 * The line above the table: how many records, which page, and where they came from — the local
 * history or the cache (no call spent), the upstream just now, or both — plus what is still loading.
 */
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useFormat } from '@/lib/i18n/use-format';
import type { TransactionsMeta, UncoveredRange } from '@/lib/search';
import { PAGE_PATHS } from '@/lib/http/paths';
import { formatCountdown } from '@/lib/i18n/format';
import { quotaWaitUntil } from '@/lib/governor';
import { useCountdown } from '../common/use-countdown';
import { useSecondsSince } from '../common/use-seconds-since';
import styles from './transactions-view.module.css';
import { useQuota } from '../quota/use-quota';

/**
 * An answer shown again from this browser's memory (going back to a page, or a tab left open) is
 * this much old before its label says when it was fetched: its calls were spent then, not now.
 */
const SHOWN_AGAIN_AFTER_S = 60;

/**
 * Where an answer came from. `fetchedAt` (the query's dataUpdatedAt) ages the label while the
 * answer stays on screen or comes back from the browser's memory.
 */
export function SourceTag({
  meta,
  fetchedAt,
}: {
  meta: Pick<TransactionsMeta, 'source' | 'ageSeconds' | 'calls'>;
  fetchedAt?: number;
}) {
  // Its calls were spent when it came (a stale stand-in's failed call too, however old the copy
  // standing in): "then" only once this browser has held it a while. Its age as data goes on from
  // the age it came with.
  const t = useTranslations('search.source');
  const f = useFormat();
  const held = useSecondsSince(fetchedAt);
  const age = meta.ageSeconds + held;
  const shownAgain = held >= SHOWN_AGAIN_AFTER_S;
  const then = shownAgain ? 'yes' : 'no';
  if (meta.source === 'history') {
    return (
      <span className={styles.source} data-source="history" data-testid="result-source" title={t('historyTitle')}>
        {t('history')}
      </span>
    );
  }
  if (meta.source === 'mixed') {
    return (
      <span className={styles.source} data-source="mixed" data-testid="result-source" title={t('mixedTitle')}>
        {t('mixed', { again: then, ago: f.ago(held), calls: meta.calls, then })}
      </span>
    );
  }
  if (meta.source === 'cache') {
    // A stale stand-in: the call that failed counted all the same.
    const failed = meta.calls === 0 ? '' : t('failedCalls', { calls: meta.calls, then });
    const title = failed ? t('cacheFailedTitle') : t('cacheTitle');
    return (
      <span className={styles.source} data-source="cache" data-testid="result-source" title={title}>
        {t('cache', { age: f.age(age) })}
        {failed}
      </span>
    );
  }
  const calls = t('calls', { calls: meta.calls, then });
  const title = shownAgain ? t('upstreamAgainTitle', { ago: f.ago(age) }) : t('upstreamTitle');
  return (
    <span className={styles.source} data-source="upstream" data-testid="result-source" title={title}>
      {t('upstream', { again: then, ago: f.ago(age), calls })}
    </span>
  );
}

/** "Loading page 3…", or while the request waits its turn, how long until the next free call. */
export function LoadingNotice({ text }: { text: string }) {
  const t = useTranslations('search.source');
  const { quota } = useQuota();
  const left = useCountdown(quota ? quotaWaitUntil(quota) : null) ?? 0;
  return (
    <span className={styles.loading} role="status" data-testid="loading-notice">
      <span className={styles.spinner} aria-hidden="true" />
      {left > 0 ? (
        <>
          {t('waiting')}{' '}
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
  const t = useTranslations('search.source');
  const f = useFormat();
  return (
    <strong className={styles.count} data-testid="record-count">
      {t('records', { count: total, total: f.count(total) })}
    </strong>
  );
}

/** For what only the local history can do: the parts of the range it could not search (not copied yet). */
export function UncoveredNote({ ranges, zone }: { ranges: UncoveredRange[]; zone: string }) {
  const t = useTranslations('search.source');
  if (ranges.length === 0) return null;
  return (
    <p className={styles.banner} data-tone="warning" role="status" data-testid="uncovered-note">
      <span>
        {t('uncovered')}{' '}
        {ranges.map((r, i) => (
          <span key={r.dateFrom}>
            {i > 0 ? '; ' : ''}
            <span className="mono">
              {r.dateFrom} – {r.dateTo}
            </span>
          </span>
        ))}{' '}
        ({zone}).
      </span>
      <Link href={PAGE_PATHS.history}>{t('seeHistory')}</Link>
    </p>
  );
}
