'use client';
/**
 * The Insights page: delivery at a glance for the current query — the same range, filters and
 * zone as a search, in the URL with the query's own parameter names — summed from the local
 * history's complete days (GET /api/insights), at no upstream cost. The form edits a draft; Show
 * commits it to the URL, which is what is read. A URL without a range shows the last 7 days.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { readsByHour, type InsightsAnswer } from '@/lib/insights';
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import { errorText } from '@/lib/http/api-client';
import { useFormat } from '@/lib/i18n/use-format';
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
  const t = useTranslations('insights');
  const say = useWords();
  const f = useFormat();
  const { enterpriseId } = useAccount();
  // The form holds every filter, the local ones too: Insights reads the local history.
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
        <h1 className={frame.title}>{t('title')}</h1>
        <div className={frame.zone}>
          <span className={frame.zoneLabel}>{t('daysIn')}</span>
          <ZoneToggle zone={zone} onChange={url.rezone} />
          <button type="button" className="button" onClick={() => window.print()}>
            {t('print')}
          </button>
        </div>
      </div>

      <form className={`panel ${styles.form}`} onSubmit={show} noValidate aria-label={t('form')}>
        <DateRangePicker
          range={draft.range}
          zone={zone}
          problems={{ 'date-from': problems['date-from'], 'date-to': problems['date-to'] }}
          onChange={(range) => setDraft({ ...draft, range })}
        />
        <FilterFields
          legend={t('filters')}
          note={t('filtersNote')}
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
            {insights.isFetching ? t('reading') : t('show')}
          </button>
          {filtersOn > 0 ? (
            <button
              type="button"
              className="button button-ghost"
              onClick={() => setDraft({ ...draft, filters: emptyFilters() })}
            >
              {t('clearFilters', { n: filtersOn })}
            </button>
          ) : null}
          <span className={styles.free}>{t('free')}</span>
        </div>
      </form>

      {search.kind === 'invalid' ? (
        <p className={styles.problem} role="alert" data-testid="insights-invalid">
          {t('invalidLink', {
            errors: Object.values(search.errors)
              .map((e) => say(e))
              .join(' '),
          })}
        </p>
      ) : null}
      {insights.isError ? (
        <p className={styles.problem} role="alert">
          {errorText(insights.error)}{' '}
          <button type="button" className="button button-small" onClick={() => void insights.refetch()}>
            {t('retry')}
          </button>
        </p>
      ) : null}
      {!data && insights.isFetching ? <p className={styles.loading}>{t('loading')}</p> : null}

      {data && query ? (
        <>
          <CoveragePanel coverage={data.coverage} rangeStartDay={query.from.toISOString().slice(0, 10)} />
          {data.total > 0 ? (
            <>
              <Summary data={data} />
              <InsightsCharts data={data} query={{ query, counted: countedQuery(query, run) }} byHour={byHour} />
              {run && !run.all ? (
                <p className={styles.coverageNote} data-testid="drill-note">
                  {t('drillNote', {
                    span:
                      run.first === run.last
                        ? f.day(run.first)
                        : t('drillSpan', { first: f.day(run.first), last: f.day(run.last) }),
                  })}
                </p>
              ) : null}
            </>
          ) : (
            <p className={styles.loading} data-testid="insights-empty">
              {data.coverage.from === null ? t('emptyNoDay') : t('emptyNoMatch')}
            </p>
          )}
        </>
      ) : null}
    </div>
  );
}

function Summary({ data }: { data: InsightsAnswer }) {
  const t = useTranslations('insights.summary');
  const f = useFormat();
  const locale = useLocale();
  const latency = (ms: number | null) => formatLatency(ms, locale);
  // Money as the reader writes it (`¥1,234.56` / `JPY 1,234.56`); a sum without a currency as a number.
  const money = (total: string, currency: string) => (currency ? f.price(total, currency) : formatPrice(total));
  const figures = [
    [t('messages'), f.count(data.total)],
    [t('delivered'), f.count(data.delivered)],
    [t('rate'), formatRate(data.rate, locale)],
    [t('latency'), `${latency(data.latencyMs.p50)} / ${latency(data.latencyMs.p90)} / ${latency(data.latencyMs.p99)}`],
    [t('parts'), f.count(data.parts)],
    [t('cost'), data.price.map((p) => money(p.total, p.currency)).join(', ') || '—'],
  ];
  return (
    <dl className={`panel ${styles.summary}`} aria-label={t('label')} data-testid="insights-summary">
      {figures.map(([label, value]) => (
        <div key={label} className={styles.figure}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
