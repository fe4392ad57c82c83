'use client';
/**
 * The search form. It edits a draft; nothing is fetched until Search is pressed (only the price of
 * the draft is asked, which costs no upstream call). Every value is judged by the server's own
 * parser before the request is made.
 */
import { useTranslations } from 'next-intl';
import { useMemo, useRef, useState, type RefObject } from 'react';
import { FREE_TEXT_PARAM, filterDef, LOCAL_FILTERS, UPSTREAM_FILTERS, type FilterParam } from '@/lib/query/filters';
import { queryKey, type FieldErrors, type QuerySettings, type TransactionsQuery } from '@/lib/query/query';
import type { Words } from '@/lib/i18n/message';
import { rolesMasked } from '@/lib/team';
import { useAccount } from '../shell/account-context';
import type { RangeProblems } from '@/lib/search';
import { activeFilters, checkDraft, emptyFilters, type SearchDraft } from '@/lib/query/draft';
import { DateRangePicker } from './date-range-picker';
import { FilterFields } from './filter-fields';
import { SearchCost } from './search-cost';
import styles from './search-form.module.css';

export interface SearchFormProps {
  draft: SearchDraft;
  /** The page's zone, order and page size: a search keeps them. */
  settings: QuerySettings;
  enterpriseId?: string;
  onDraftChange: (draft: SearchDraft) => void;
  onSearch: (query: TransactionsQuery) => void;
  searchButtonRef: RefObject<HTMLButtonElement | null>;
  busy: boolean;
}

export function SearchForm({
  draft,
  settings,
  enterpriseId,
  onDraftChange,
  onSearch,
  searchButtonRef,
  busy,
}: SearchFormProps) {
  // A role that sees numbers and text masked searches the identifiers (id-text), not free text
  // over what it cannot see (lib/team/query-rules.ts: the server refuses q for it).
  const masked = rolesMasked(useAccount().role);
  const localFilters = masked ? LOCAL_FILTERS.filter((f) => f.param !== FREE_TEXT_PARAM) : LOCAL_FILTERS;
  const t = useTranslations('search.form');
  const checked = useMemo(() => checkDraft(draft, settings), [draft, settings]);
  const errors: FieldErrors = checked.ok ? {} : checked.errors;
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The range is judged live (the range limit must show as it is broken); filters once left.
  const rangeProblems: RangeProblems = { 'date-from': errors['date-from'], 'date-to': errors['date-to'] };
  const filterProblems = Object.fromEntries(
    Object.entries(errors).filter(([param]) => submitted || touched.has(param)),
  ) as Partial<Record<FilterParam, Words>>;
  const planParams = checked.ok ? queryKey(checked.query) : null;
  const active = activeFilters(draft);
  const filtersOn = active.length;
  const localOn = active.filter((p) => filterDef(p).source === 'local').length;
  const [localOpen, setLocalOpen] = useState(false);
  const setFilter = (param: FilterParam, value: string) =>
    onDraftChange({ ...draft, filters: { ...draft.filters, [param]: value } });
  const touch = (param: FilterParam) => setTouched((t) => (t.has(param) ? t : new Set(t).add(param)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!checked.ok) {
      setSubmitted(true);
      // After the problems render, take the person to the first one.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    onSearch(checked.query);
  }

  return (
    <form ref={formRef} className={`panel ${styles.form}`} onSubmit={submit} noValidate aria-label={t('label')}>
      <DateRangePicker
        range={draft.range}
        zone={settings.tz}
        problems={rangeProblems}
        onChange={(range) => onDraftChange({ ...draft, range })}
      />
      <FilterFields
        legend={t('filters')}
        filters={UPSTREAM_FILTERS}
        values={draft.filters}
        problems={filterProblems}
        implied={enterpriseId ? { 'enterprise-id': enterpriseId } : {}}
        onChange={setFilter}
        onBlur={touch}
      />
      <details
        className={styles.localFilters}
        open={localOn > 0 || localOpen}
        onToggle={(e) => setLocalOpen(e.currentTarget.open)}
        data-testid="local-filters"
      >
        <summary className={styles.localSummary}>
          {t('localSummary')} <span className={styles.localBadge}>{t('localBadge')}</span>
        </summary>
        <FilterFields
          legend={t('localLegend')}
          note={t('localNote')}
          filters={localFilters}
          values={draft.filters}
          problems={filterProblems}
          onChange={setFilter}
          onBlur={touch}
        />
      </details>
      <div className={styles.actions}>
        <button ref={searchButtonRef} type="submit" className="button button-primary" data-testid="search-button">
          {busy ? t('searching') : t('search')}
        </button>
        {filtersOn > 0 ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => onDraftChange({ ...draft, filters: emptyFilters() })}
          >
            {t('clear', { count: filtersOn })}
          </button>
        ) : null}
        <SearchCost params={planParams} />
      </div>
    </form>
  );
}
