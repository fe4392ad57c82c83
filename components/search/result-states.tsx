'use client';
/**
 * The results area when there are no rows to show: nothing searched yet, a link from another site
 * waiting for Search, a link that cannot be searched, or a search that found nothing (with what to
 * widen).
 */
import { useTranslations } from 'next-intl';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import type { FieldErrors } from '@/lib/query/query';
import styles from './result-states.module.css';
import { useQuota } from '../quota/use-quota';

/** `<strong>Search</strong>` in a sentence of the catalogue. */
const strong = (chunks: React.ReactNode) => <strong>{chunks}</strong>;

export function IdleState() {
  const t = useTranslations('search.states');
  const tq = useTranslations('quota');
  const { quota } = useQuota();
  const limits = quota?.windows.map((w) => t('limit', { limit: w.limit, window: w.name })).join(tq('listSeparator'));
  return (
    <div className={styles.state} data-testid="idle-state">
      <h3 className={styles.stateTitle}>{t('idleTitle')}</h3>
      <p className={styles.detail}>
        {t.rich(limits ? 'idleTextLimits' : 'idleText', { strong, limits: limits ?? '' })}
      </p>
    </div>
  );
}

/** A search link opened from another site: the form holds it, and it runs only when Search is pressed. */
export function HeldLinkState() {
  const t = useTranslations('search.states');
  return (
    <div className={styles.state} role="status" data-testid="held-link">
      <h3 className={styles.stateTitle}>{t('heldTitle')}</h3>
      <p className={styles.detail}>{t.rich('heldText', { strong })}</p>
    </div>
  );
}

export function InvalidLinkState({ errors }: { errors: FieldErrors }) {
  const t = useTranslations('search.states');
  const say = useWords();
  return (
    <div className={styles.problem} data-tone="danger" role="alert" data-testid="invalid-link">
      <h3 className={styles.problemTitle}>{t('invalidTitle')}</h3>
      <ul className={styles.errors}>
        {Object.entries(errors).map(([param, message]) => (
          <li key={param}>{say(message)}</li>
        ))}
      </ul>
      <p className={styles.detail}>{t('invalidText')}</p>
    </div>
  );
}

export interface EmptyStateProps {
  /** The range searched, its two ends as the page shows times, and its zone. */
  range: { from: string; to: string; zone: string };
  filters: Partial<Record<FilterParam, string>>;
  onWiden: () => void;
  onDropFilter: (param: FilterParam) => void;
  /**
   * What only the local history could search, over a range none of which it holds: nothing was
   * searched, so nothing can be said about what was sent.
   */
  nothingSearched?: boolean;
}

export function EmptyState({ range, filters, onWiden, onDropFilter, nothingSearched }: EmptyStateProps) {
  const t = useTranslations('search.states');
  const tf = useTranslations('fields.filter');
  const active = FILTERS.filter((f) => filters[f.param]);
  if (nothingSearched) {
    return (
      <div className={styles.state} data-testid="empty-state">
        <h3 className={styles.stateTitle}>{t('nothingSearchedTitle')}</h3>
        <p className={styles.detail}>{t('nothingSearchedText', range)}</p>
      </div>
    );
  }
  const filtered = active.length > 0 ? 'yes' : 'no';
  return (
    <div className={styles.state} data-testid="empty-state">
      <h3 className={styles.stateTitle}>{t('emptyTitle')}</h3>
      <p className={styles.detail}>{t('emptyText', { ...range, filtered })}</p>
      <div className={styles.suggestions}>
        <button type="button" className="button button-small" onClick={onWiden}>
          {t('widen')}
        </button>
        {active.map((f) => (
          <button key={f.param} type="button" className="button button-small" onClick={() => onDropFilter(f.param)}>
            {t('dropFilter', { label: tf(`${f.param}.label`), value: filters[f.param]! })}
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
  const t = useTranslations('search.states');
  const f = useFormat();
  return (
    <div className={styles.state} data-testid="past-last-page">
      <h3 className={styles.stateTitle}>{t('noPage', { page: f.count(page) })}</h3>
      <p className={styles.detail}>{t('pages', { count: lastPage, pages: f.count(lastPage) })}</p>
      <div className={styles.suggestions}>
        <button type="button" className="button button-small" onClick={onLastPage}>
          {t('goToPage', { page: f.count(lastPage) })}
        </button>
      </div>
    </div>
  );
}
