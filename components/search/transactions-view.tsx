'use client';
/**
 * The transactions page. The URL is the state (the API's parameter names plus `row`); the form
 * edits a draft, and only Search — or a change of page, sort, page size or zone — commits it to
 * the URL, which is what fetches. Without a range in the URL nothing is fetched: a search costs an
 * upstream call, so the page waits to be asked. A URL opened from another site (`heldLink`) fills the
 * form and waits for Search too: another site's link is not the person asking.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { CdrFieldKey, Field } from '@/lib/cdr/fields';
import { normaliseTrxId } from '@/lib/lookup';
import type { FilterParam } from '@/lib/query/filters';
import { queryKey, UPSTREAM_SORT, type PageSize, type SortOrder, type TransactionsQuery } from '@/lib/query/query';
import type { SearchDraft, WallRange } from '@/lib/query/draft';
import { pageHoldingFirstRow } from '@/lib/query/page-url';
import type { Zone } from '@/lib/time/zones';
import { visibleInOrder } from '@/lib/search';
import { useFormat } from '@/lib/i18n/use-format';
import { DEFAULT_PRESET, presetRange } from '@/lib/search';
import { transactionsQueryOptions, useSearchUrl } from '@/lib/search/client';
import { pageInZone } from '@/lib/search';
import { wholeRangeUncovered } from '@/lib/search';
import { ZoneToggle } from '../common/zone-toggle';
import { useAccount } from '../shell/account-context';
import { ColumnChooser } from './column-chooser';
import { PageSizeSelect, Pagination } from './pagination';
import { EmptyState, HeldLinkState, IdleState, InvalidLinkState, PastLastPageState } from './result-states';
import { LoadingNotice, RecordCount, SourceTag, UncoveredNote } from './result-summary';
import { ResultsSkeleton, ResultsTable } from './results-table';
import { SearchForm } from './search-form';
import { useColumnPrefs } from './use-column-prefs';
import { useTransactionsTable } from './use-transactions-table';
import { useHeldLink } from './use-held-link';
import styles from './transactions-view.module.css';
import frame from '../common/page-frame.module.css';
import { usePreferredZone } from '../common/preferred-zone';

// Loaded when first shown, not with the page: the drawer only once a row is opened, the CSV button
// once there are results. Together they are a few kB of the page's 200 kB gzip first-load budget
// (bench:ui). A pasted link with a row still renders the drawer on the server.
// Each waits for its code inside a boundary of its own (`loading`: nothing drawn meanwhile).
// Without one, next/dynamic suspends up to the page's boundary, which hides the whole view while
// the code loads: the page blinks, and the focus inside it (the drawer's title, for a pasted link
// whose results came in just then) falls to the page.
const DetailDrawer = dynamic(() => import('./detail-drawer').then((m) => m.DetailDrawer), { loading: () => null });
const DownloadCsvButton = dynamic(() => import('../exports/download-csv-button').then((m) => m.DownloadCsvButton), {
  loading: () => null,
});
// Drawn only when a search fails, or when a range holds more than the upstream lets one query page
// through: a few kB of the first load that most visits never run.
const QueryProblem = dynamic(() => import('./query-problem').then((m) => m.QueryProblem), { loading: () => null });
const TruncatedNote = dynamic(() => import('./truncated-note').then((m) => m.TruncatedNote), { loading: () => null });

export interface TransactionsViewProps {
  /** The range the form offers when the URL has none (last 24 hours, computed for this request). */
  defaultRange: WallRange;
  /** The page was opened from another site: its search (and open row) wait for a press of Search. */
  heldLink?: boolean;
}

const NO_ROWS: never[] = [];

/** "received newest first", "by Price, descending". */
/** How the whole result is ordered, for the table's caption. */
function useOrderWords(): (sort: CdrFieldKey, order: SortOrder) => string {
  const t = useTranslations('search.view');
  const tf = useTranslations('fields.field');
  return (sort, order) =>
    sort === UPSTREAM_SORT ? t('orderReceived', { order }) : t('orderBy', { label: tf(`${sort}.label`), order });
}

export function TransactionsView({ defaultRange, heldLink = false }: TransactionsViewProps) {
  const { enterpriseId } = useAccount();
  const t = useTranslations('search.view');
  const tf = useTranslations('fields');
  const f = useFormat();
  const orderWords = useOrderWords();
  const url = useSearchUrl({
    preferredZone: usePreferredZone().zone,
    initialRange: defaultRange,
    defaultRange: (zone) => presetRange(DEFAULT_PRESET, new Date(), zone),
  });
  const { search, settings, zone, draft, setDraft } = url;
  const queryClient = useQueryClient();
  const searchButton = useRef<HTMLButtonElement>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [held, setHeld] = useHeldLink(heldLink);

  const results = useQuery({
    ...transactionsQueryOptions(search.kind === 'ready' ? search.key : ''),
    enabled: search.kind === 'ready' && !held,
  });
  const page = search.kind === 'ready' ? results.data : undefined;
  // A page number past the last one (an old link): said as such, not as an empty table.
  const pastLastPage =
    !!page &&
    page._embedded.total_found > 0 &&
    page._embedded.cdrs.length === 0 &&
    page.page > page._meta.reachablePages;
  const [prefs, setPrefs] = useColumnPrefs();
  const query = search.kind === 'ready' ? search.query : null;
  const table = useTransactionsTable({
    rows: page?._embedded.cdrs ?? NO_ROWS,
    zone,
    sort: settings.sort,
    sortOrder: settings.sortOrder,
    wholeSort: page?._meta.source === 'history',
    prefs,
    onSort: (field: CdrFieldKey, order: SortOrder) => {
      if (query) url.show({ ...query, sort: field, sortOrder: order, page: 1 });
    },
  });
  const shownRows = table.getRowModel().rows.map((r) => r.original);
  // As the records write it, however the link wrote it (a capitalised id from a ticket).
  const openRow = held || !url.row ? null : normaliseTrxId(url.row);
  // However the drawer closed (Close, Esc, Back), the focus it held goes back to its row (or to
  // Search when the row is not on the page), rather than to the page. A focus placed since (Filter
  // by this value puts it on Search) stays where it is.
  const shownRow = useRef(openRow);
  useEffect(() => {
    const closed = shownRow.current;
    shownRow.current = openRow;
    if (!closed || openRow) return;
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const row = document.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(closed)}"]`);
      (row ?? searchButton.current)?.focus();
    });
  }, [openRow]);

  function runSearch(query: TransactionsQuery) {
    setNotice(null);
    setHeld(false);
    const key = queryKey(query);
    // The same search again: ask the server once more (it answers from its cache while fresh).
    if (search.kind === 'ready' && key === search.key)
      void queryClient.refetchQueries({ queryKey: transactionsQueryOptions(key).queryKey });
    else url.show(query);
  }

  function changePageSize(size: PageSize) {
    if (!query) return;
    // The rows on screen stay in view: the page that holds the first of them at the new size.
    url.show({ ...query, pageSize: size, page: pageHoldingFirstRow(query.page, query.pageSize, size) });
  }

  function changeZone(next: Zone) {
    // Same instants, new wall clocks. The page on screen is shown again in the new zone: asked of
    // the server, a recent range's page (expired after two minutes) would cost a call.
    if (search.kind === 'ready' && results.data && !results.isPlaceholderData) {
      const nextKey = transactionsQueryOptions(queryKey({ ...search.query, tz: next })).queryKey;
      if (!queryClient.getQueryData(nextKey)) {
        // Stored as just received (not asked again), so its age goes on from the original's.
        const shown = pageInZone(results.data, next);
        const since = Math.max(0, Math.round((Date.now() - results.dataUpdatedAt) / 1000));
        queryClient.setQueryData(nextKey, {
          ...shown,
          _meta: { ...shown._meta, ageSeconds: shown._meta.ageSeconds + since },
        });
      }
    }
    url.rezone(next);
  }

  function closeRow() {
    url.closeRow();
  }

  function fillForm(next: SearchDraft, message: string) {
    setDraft(next);
    setNotice(message);
    requestAnimationFrame(() => searchButton.current?.focus());
  }

  function filterBy(param: FilterParam, value: string, field: Field) {
    closeRow();
    fillForm(
      { ...draft, filters: { ...draft.filters, [param]: value } },
      t('filterAdded', { label: tf(`field.${field.key}.label`), value }),
    );
  }

  const view = {
    query,
    rows: shownRows,
    columns: visibleInOrder(prefs),
    total: page?._embedded.total_found ?? null,
  };

  const clientSort = table.getState().sorting[0];
  const clientSortField = clientSort ? table.getColumn(clientSort.id)?.columnDef.meta?.field : undefined;
  const clientSortLabel = clientSortField ? tf(`field.${clientSortField.key}.label`) : '';

  return (
    <>
      <div className={frame.page}>
        <div className={frame.titleRow}>
          <h1 className={frame.title}>{t('title')}</h1>
          <div className={frame.zone}>
            <span className={frame.zoneLabel} id="zone-label">
              {t('timesIn')}
            </span>
            <ZoneToggle zone={zone} onChange={changeZone} />
          </div>
        </div>

        <SearchForm
          draft={draft}
          settings={settings}
          enterpriseId={enterpriseId}
          onDraftChange={setDraft}
          onSearch={runSearch}
          searchButtonRef={searchButton}
          busy={results.isFetching}
        />
        {notice ? (
          <p className={styles.notice} role="status">
            {notice}
          </p>
        ) : null}

        <section className={`panel ${styles.results}`} aria-labelledby="results-heading">
          <div className={styles.toolbar}>
            <h2 id="results-heading" className={styles.resultsTitle}>
              {t('results')}
            </h2>
            {page ? (
              <>
                <RecordCount total={page._embedded.total_found} />
                <SourceTag meta={page._meta} fetchedAt={results.dataUpdatedAt} />
              </>
            ) : null}
            {search.kind === 'ready' && results.isFetching ? (
              <LoadingNotice
                text={results.isPlaceholderData ? t('loadingPage', { page: search.query.page }) : t('searching')}
              />
            ) : null}
            <div className={styles.toolbarEnd}>
              <ColumnChooser prefs={prefs} onChange={setPrefs} />
            </div>
          </div>

          {page?._meta.stale ? (
            <p className={styles.banner} data-tone="warning" role="status">
              {t('stale', { reason: page._meta.stale })}
            </p>
          ) : null}
          {page?._meta.notWhole ? (
            <p className={styles.banner} data-tone="warning" role="status" data-testid="not-whole-note">
              {t('notWhole', { reason: page._meta.notWhole })}
            </p>
          ) : null}
          {page?._meta.uncovered ? <UncoveredNote ranges={page._meta.uncovered} zone={zone} /> : null}
          {page?._meta.truncated && query ? (
            <TruncatedNote
              total={page._embedded.total_found}
              reachable={page._meta.reachablePages}
              query={query}
              onNarrow={(range) => fillForm({ ...draft, range }, t('narrowed'))}
              onPageSize={changePageSize}
            />
          ) : null}
          {clientSort && page ? (
            <p className={styles.banner} data-tone="info" data-testid="client-sort-note">
              {t('clientSort', {
                label: clientSortLabel,
                order: clientSort.desc ? 'desc' : 'asc',
                rows: page._embedded.cdrs.length,
              })}{' '}
              <button type="button" className="button button-small" onClick={() => table.resetSorting()}>
                {t('backToReceived')}
              </button>
            </p>
          ) : null}

          {search.kind === 'idle' ? <IdleState /> : null}
          {search.kind === 'ready' && held ? <HeldLinkState /> : null}
          {search.kind === 'invalid' ? <InvalidLinkState errors={search.errors} /> : null}
          {search.kind === 'ready' && results.isError && !results.isFetching ? (
            <QueryProblem
              key={results.errorUpdatedAt}
              error={results.error}
              onRetry={() => void results.refetch()}
              subject="search"
            />
          ) : null}
          {search.kind === 'ready' && !page && results.isFetching ? <ResultsSkeleton table={table} /> : null}
          {page && query && page._embedded.total_found === 0 ? (
            <EmptyState
              range={{ from: f.instant(query.from, zone), to: f.instant(query.to, zone), zone }}
              nothingSearched={wholeRangeUncovered(page._meta.uncovered, query)}
              filters={query.filters}
              onWiden={() => fillForm({ ...draft, range: presetRange('last-7-days', new Date(), zone) }, t('widened'))}
              onDropFilter={(param) =>
                fillForm(
                  { ...draft, filters: { ...draft.filters, [param]: '' } },
                  t('filterRemoved', { label: tf(`filter.${param}.label`) }),
                )
              }
            />
          ) : null}
          {pastLastPage ? (
            <PastLastPageState
              page={page.page}
              lastPage={page._meta.reachablePages}
              onLastPage={() => query && url.show({ ...query, page: page._meta.reachablePages })}
            />
          ) : null}
          {page && page._embedded.total_found > 0 ? (
            <>
              {pastLastPage ? null : (
                <ResultsTable
                  table={table}
                  caption={t('caption', {
                    page: f.count(page.page),
                    pages: f.count(page._meta.reachablePages),
                    order: orderWords(settings.sort, settings.sortOrder),
                  })}
                  openRowId={openRow}
                  onOpenRow={(id) => url.openRow(id)}
                  stale={results.isPlaceholderData}
                />
              )}
              <div className={styles.footer}>
                <Pagination
                  links={page._links}
                  page={page.page}
                  pageCount={page._meta.reachablePages}
                  total={page._embedded.total_found}
                  onNavigate={(q) => url.show(q)}
                />
                <div className={styles.footerEnd}>
                  <DownloadCsvButton view={view} />
                  <PageSizeSelect value={settings.pageSize} onChange={changePageSize} />
                </div>
              </div>
            </>
          ) : null}
        </section>

        {openRow ? (
          <DetailDrawer
            key="drawer"
            trxId={openRow}
            rows={shownRows}
            rowsSettled={search.kind !== 'ready' || !results.isPending}
            zone={zone}
            onClose={closeRow}
            onMove={(id) => url.openRow(id, 'replace')}
            onFilter={filterBy}
          />
        ) : null}
      </div>
    </>
  );
}
