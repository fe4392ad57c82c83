'use client';
/**
 * The Insights page: delivery at a glance for the current query — the same range, filters and
 * zone as a search, in the URL with the query's own parameter names — summed from the local
 * history's complete days (GET /api/insights), at no upstream cost. The form edits a draft; Show
 * commits it to the URL, which is what is read. A URL without a range shows the last 7 days.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { readsByHour, type InsightsAnswer } from '@/lib/insights';
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import { errorText } from '@/lib/http/api-client';
import { formatCount } from '@/lib/i18n/format';
import { useWords } from '@/lib/i18n/use-words';
import { formatLatency, formatPrice, formatRate } from '@/lib/insights';
import { countedQuery, countedRun } from '@/lib/insights';
import { insightsQueryOptions } from '@/lib/insights/client';
import { useSearchUrl } from '@/lib/search/client';
import { activeFilters, checkDraft, emptyFilters, type WallRange } from '@/lib/query/draft';
import { ZoneToggle } from '../common/zone-toggle';
import { useAccount } from '../shell/account-context';
import { DateRangePicker } from '../search/date-range-picker';
import { FilterFields } from '../search/filter-fields';
import { CoveragePanel } from './coverage-panel';
import { InsightsCharts } from './insights-charts';
import styles from './insights.module.css';
import frame from '../common/page-frame.module.css';
import { usePreferredZone } from '../common/preferred-zone';

export function InsightsView({ defaultRange }: { defaultRange: WallRange }) {
  const { enterpriseId } = useAccount();
  // The form holds every filter, the local ones too: Insights reads the local history.
  const say = useWords();
  const url = useSearchUrl({
    preferredZone: usePreferredZone().zone,
    initialRange: defaultRange,
    defaultRange: () => defaultRange,
  });
  const { search, settings, zone, draft, setDraft, show: showQuery } = url;
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());

  // Insights costs nothing: a URL without a range shows the default one at once.
  useEffect(() => {
    if (search.kind !== 'idle') return;
    const checked = checkDraft({ range: defaultRange, filters: draft.filters }, settings);
    if (checked.ok) showQuery(checked.query, { history: 'replace' });
  }, [search.kind, defaultRange, draft.filters, settings, showQuery]);

  const query = search.kind === 'ready' ? search.query : null;
  const [polling, setPolling] = useState(false);
  const insights = useQuery({
    ...insightsQueryOptions(search.kind === 'ready' ? search.key : '', polling),
    enabled: search.kind === 'ready',
  });
  const data = insights.data;
  const incomplete = data ? data.coverage.days.some((d) => d.state === 'syncing' || d.state === 'missing') : false;
  if (polling !== incomplete) setPolling(incomplete);

  const checked = checkDraft(draft, settings);
  const problems = checked.ok ? {} : checked.errors;

  function show(event: React.FormEvent) {
    event.preventDefault();
    setTouched(new Set(FILTERS.map((f) => f.param)));
    if (checked.ok) showQuery(checked.query);
  }

  const filtersOn = activeFilters(draft).length;
  const byHour =
    data && query ? readsByHour(query.from.getTime(), query.to.getTime()) && data.byHour.length > 0 : false;
  const run = data ? countedRun(data.coverage.days) : null;

  return (
    <div className={frame.page}>
      <div className={frame.titleRow}>
        <h1 className={frame.title}>Insights</h1>
        <div className={frame.zone}>
          <span className={frame.zoneLabel}>Days in</span>
          <ZoneToggle zone={zone} onChange={url.rezone} />
          <button type="button" className="button" onClick={() => window.print()}>
            Print
          </button>
        </div>
      </div>

      <form className={`panel ${styles.form}`} onSubmit={show} noValidate aria-label="Insights query">
        <DateRangePicker
          range={draft.range}
          zone={zone}
          problems={{ 'date-from': problems['date-from'], 'date-to': problems['date-to'] }}
          onChange={(range) => setDraft({ ...draft, range })}
        />
        <FilterFields
          legend="Filters"
          note="Any filter of a search, the local history's own included."
          filters={FILTERS}
          values={draft.filters}
          problems={
            Object.fromEntries(Object.entries(problems).filter(([p]) => touched.has(p))) as Partial<
              Record<FilterParam, string>
            >
          }
          implied={enterpriseId ? { 'enterprise-id': enterpriseId } : {}}
          onChange={(param, value) => setDraft({ ...draft, filters: { ...draft.filters, [param]: value } })}
          onBlur={(param) => setTouched((t) => new Set(t).add(param))}
        />
        <div className={styles.actions}>
          <button type="submit" className="button button-primary" data-testid="insights-show">
            {insights.isFetching ? 'Reading…' : 'Show'}
          </button>
          {filtersOn > 0 ? (
            <button
              type="button"
              className="button button-ghost"
              onClick={() => setDraft({ ...draft, filters: emptyFilters() })}
            >
              Clear {filtersOn === 1 ? 'filter' : `${filtersOn} filters`}
            </button>
          ) : null}
          <span className={styles.free}>Local history: no upstream call</span>
        </div>
      </form>

      {search.kind === 'invalid' ? (
        <p className={styles.problem} role="alert" data-testid="insights-invalid">
          This link’s query cannot be read: {Object.values(search.errors).map(say).join(' ')}
        </p>
      ) : null}
      {insights.isError ? (
        <p className={styles.problem} role="alert">
          {errorText(insights.error)}{' '}
          <button type="button" className="button button-small" onClick={() => void insights.refetch()}>
            Retry
          </button>
        </p>
      ) : null}
      {!data && insights.isFetching ? <p className={styles.loading}>Reading the local history…</p> : null}

      {data && query ? (
        <>
          <CoveragePanel coverage={data.coverage} rangeStartDay={query.from.toISOString().slice(0, 10)} />
          {data.total > 0 ? (
            <>
              <Summary data={data} />
              <InsightsCharts data={data} query={{ query, counted: countedQuery(query, run) }} byHour={byHour} />
              {run && !run.all ? (
                <p className={styles.coverageNote} data-testid="drill-note">
                  A click on a figure of the whole range lists{' '}
                  {run.first === run.last ? run.first : `${run.first} to ${run.last}`}, the newest counted days without
                  a gap: a list over the days left out would be searched upstream. A click on a day or an hour lists
                  that day or hour.
                </p>
              ) : null}
            </>
          ) : (
            <p className={styles.loading} data-testid="insights-empty">
              {data.coverage.from === null
                ? 'Nothing to show until a day of this range is in the local history.'
                : 'No message in the counted days matches this query.'}
            </p>
          )}
        </>
      ) : null}
    </div>
  );
}

function Summary({ data }: { data: InsightsAnswer }) {
  const figures = [
    ['Messages', formatCount(data.total)],
    ['Delivered', formatCount(data.delivered)],
    ['Delivery rate', formatRate(data.rate)],
    [
      'Latency p50 / p90 / p99',
      `${formatLatency(data.latencyMs.p50)} / ${formatLatency(data.latencyMs.p90)} / ${formatLatency(data.latencyMs.p99)}`,
    ],
    ['Parts', formatCount(data.parts)],
    ['Cost', data.price.map((p) => `${formatPrice(p.total)} ${p.currency}`).join(', ') || '—'],
  ];
  return (
    <dl className={`panel ${styles.summary}`} data-testid="insights-summary">
      {figures.map(([label, value]) => (
        <div key={label} className={styles.figure}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
