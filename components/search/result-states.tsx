'use client';
/**
 * The results area when there are no rows to show: nothing searched yet, a link from another site
 * waiting for Search, a link that cannot be searched, or a search that found nothing (with what to
 * widen).
 */
import { formatCount } from '@/lib/i18n/format';
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import type { FieldErrors } from '@/lib/query/query';
import styles from './result-states.module.css';
import { useQuota } from '../quota/use-quota';

export function IdleState() {
  const { quota } = useQuota();
  const limits = quota?.windows.map((w) => `${w.limit} a${w.name === 'hour' ? 'n' : ''} ${w.name}`).join(', ');
  return (
    <div className={styles.state} data-testid="idle-state">
      <h3 className={styles.stateTitle}>Nothing searched yet</h3>
      <p className={styles.detail}>
        Pick a range and any filters, then press <strong>Search</strong>. A search the dashboard has not cached uses one
        of the upstream’s calls{limits ? ` (${limits})` : ''}, so nothing is fetched until you ask; the line beside the
        button says what it will cost.
      </p>
    </div>
  );
}

/** A search link opened from another site: the form holds it, and it runs only when Search is pressed. */
export function HeldLinkState() {
  return (
    <div className={styles.state} role="status" data-testid="held-link">
      <h3 className={styles.stateTitle}>This search has not run yet</h3>
      <p className={styles.detail}>
        The link came from another site, so the dashboard did not search on its own: a search it has not cached uses one
        of your account’s upstream calls. The form above holds the link’s search; check it and press{' '}
        <strong>Search</strong> to run it.
      </p>
    </div>
  );
}

export function InvalidLinkState({ errors }: { errors: FieldErrors }) {
  return (
    <div className={styles.problem} data-tone="danger" role="alert" data-testid="invalid-link">
      <h3 className={styles.problemTitle}>This link’s search cannot be run</h3>
      <ul className={styles.errors}>
        {Object.entries(errors).map(([param, message]) => (
          <li key={param}>{message}</li>
        ))}
      </ul>
      <p className={styles.detail}>
        The form above holds the link’s values: correct them and press Search. No upstream call was made.
      </p>
    </div>
  );
}

export interface EmptyStateProps {
  rangeText: string;
  filters: Partial<Record<FilterParam, string>>;
  onWiden: () => void;
  onDropFilter: (param: FilterParam) => void;
  /**
   * What only the local history could search, over a range none of which it holds: nothing was
   * searched, so nothing can be said about what was sent.
   */
  nothingSearched?: boolean;
}

export function EmptyState({ rangeText, filters, onWiden, onDropFilter, nothingSearched }: EmptyStateProps) {
  const active = FILTERS.filter((f) => filters[f.param]);
  if (nothingSearched) {
    return (
      <div className={styles.state} data-testid="empty-state">
        <h3 className={styles.stateTitle}>Nothing could be searched</h3>
        <p className={styles.detail}>
          This search uses what only the local history can do (free text, its own filters or another order), and none of
          the range {rangeText} is copied to it yet. Copy those days on the History page, or search without what only
          the local history can do.
        </p>
      </div>
    );
  }
  return (
    <div className={styles.state} data-testid="empty-state">
      <h3 className={styles.stateTitle}>No messages match</h3>
      <p className={styles.detail}>
        Nothing was sent {rangeText}
        {active.length > 0 ? ' with these filters' : ''}. Try a wider range
        {active.length > 0 ? ' or fewer filters' : ''}; each change goes into the form, and Search says what it costs
        first.
      </p>
      <div className={styles.suggestions}>
        <button type="button" className="button button-small" onClick={onWiden}>
          Widen to the last 7 days
        </button>
        {active.map((f) => (
          <button key={f.param} type="button" className="button button-small" onClick={() => onDropFilter(f.param)}>
            Drop {f.label}: {filters[f.param]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** A page past the last one (an old link, a page number typed into the URL): said, with the way back. */
export function PastLastPageState({
  page,
  lastPage,
  onLastPage,
}: {
  page: number;
  lastPage: number;
  onLastPage: () => void;
}) {
  return (
    <div className={styles.state} data-testid="past-last-page">
      <h3 className={styles.stateTitle}>There is no page {formatCount(page)}</h3>
      <p className={styles.detail}>
        This search has {formatCount(lastPage)} {lastPage === 1 ? 'page' : 'pages'} at this page size.
      </p>
      <div className={styles.suggestions}>
        <button type="button" className="button button-small" onClick={onLastPage}>
          Go to page {formatCount(lastPage)}
        </button>
      </div>
    </div>
  );
}
