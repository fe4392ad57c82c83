'use client';
/**
 * Said when a search matches more records than its pages can reach (the dashboard's pages stop at
 * 1000, as the upstream's do): how far they reach, and the ways to reach the rest.
 */
import { PAGE_SIZES, wallClocks, type PageSize, type TransactionsQuery } from '@/lib/query/query';
import { useTranslations } from 'next-intl';
import { useFormat } from '@/lib/i18n/use-format';
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
  const t = useTranslations('search.truncated');
  const f = useFormat();
  const halves = splitRange(wallClocks(query), query.tz);
  const largest = PAGE_SIZES[PAGE_SIZES.length - 1]!;
  return (
    <div className={styles.banner} data-tone="warning" role="status" data-testid="truncated-note">
      {t('text', {
        total: f.count(total),
        pages: f.count(reachable),
        reachable: f.count(reachable * query.pageSize),
        size: query.pageSize,
        largest: query.pageSize < largest ? largest : 0,
      })}
      <span className={styles.bannerActions}>
        {query.pageSize < largest ? (
          <button type="button" className="button button-small" onClick={() => onPageSize(largest)}>
            {t('perPage', { size: largest })}
          </button>
        ) : null}
        {halves ? (
          <>
            <button type="button" className="button button-small" onClick={() => onNarrow(halves[0])}>
              {t('older')}
            </button>
            <button type="button" className="button button-small" onClick={() => onNarrow(halves[1])}>
              {t('newer')}
            </button>
          </>
        ) : null}
      </span>
    </div>
  );
}
