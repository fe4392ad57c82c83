'use client';
/**
 * Said when a search matches more records than its pages can reach (the dashboard's pages stop at
 * 1000, as the upstream's do): how far they reach, and the ways to reach the rest.
 */
import { PAGE_SIZES, wallClocks, type PageSize, type TransactionsQuery } from '@/lib/query/query';
import { formatCount } from '@/lib/i18n/format';
import type { WallRange } from '@/lib/query/draft';
import { splitRange } from '@/lib/search';
import styles from './transactions-view.module.css';

export function TruncatedNote({
  total,
  reachable,
  query,
  onNarrow,
  onPageSize,
}: {
  total: number;
  reachable: number;
  query: TransactionsQuery;
  onNarrow: (range: WallRange) => void;
  onPageSize: (size: PageSize) => void;
}) {
  const halves = splitRange(wallClocks(query), query.tz);
  const largest = PAGE_SIZES[PAGE_SIZES.length - 1]!;
  return (
    <div className={styles.banner} data-tone="warning" role="status" data-testid="truncated-note">
      {formatCount(total)} records match, but pages stop at {formatCount(reachable)} (
      {formatCount(reachable * query.pageSize)} records at {query.pageSize} a page).{' '}
      {query.pageSize < largest ? `Show ${largest} a page, narrow` : 'Narrow'} the range or add a filter to reach the
      rest.
      <span className={styles.bannerActions}>
        {query.pageSize < largest ? (
          <button type="button" className="button button-small" onClick={() => onPageSize(largest)}>
            {largest} a page
          </button>
        ) : null}
        {halves ? (
          <>
            <button type="button" className="button button-small" onClick={() => onNarrow(halves[0])}>
              Older half
            </button>
            <button type="button" className="button button-small" onClick={() => onNarrow(halves[1])}>
              Newer half
            </button>
          </>
        ) : null}
      </span>
    </div>
  );
}
