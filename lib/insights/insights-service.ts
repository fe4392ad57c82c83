import 'server-only';
/**
 * GET /api/insights for an account: the query (parsed by the route, lib/query), its range cut into
 * days of the query's zone, only the days the local history holds completely counted (the others
 * named, with why), and the sums, breakdowns and exact latency percentiles of those days computed
 * in the store. Never an upstream call: Insights reads the account's own copy only.
 */
import { readsByHour, type InsightsAnswer } from './api';
import type { HistoryIndex } from '../history/server';
import { localSearchOf } from '../history/server';
import { scopeOf } from '../history';
import { QUERY_DEFAULTS, queryKey, UPSTREAM_SORT, type TransactionsQuery } from '../query/query';
import type { CachePolicy } from '../cache/server';
import type { HistoryStore } from '../history/server';
import type { InsightsStore } from './insights-store';
import { countedRanges, coverDays, type CoveredDay } from './coverage';
import { coverageNote } from './coverage-note';
import type { Locale } from '../i18n/locales';
import { translate } from '../i18n/translate';
import { foldSums } from './fold';
import { concat, histogramOf, LATENCY_BUCKETS, percentilesOf } from './latency-stats';
import { HOUR_MS } from '../time/units';

export interface InsightsServiceDeps {
  history: Pick<HistoryStore, 'listDays'>;
  insights: InsightsStore;
  index: Pick<HistoryIndex, 'completeDays'>;
  policy: Pick<CachePolicy, 'settledBefore'>;
  now: () => number;
}

/** Every whole or partial UTC hour of the counted days (for an hourly chart that shows quiet hours). */
function hoursOf(days: readonly CoveredDay[]): number[] {
  const out: number[] = [];
  for (const d of days) {
    if (d.state !== 'complete') continue;
    for (let h = Math.floor(d.from / HOUR_MS) * HOUR_MS; h <= d.to; h += HOUR_MS) out.push(h);
  }
  return out;
}

/** The answer with its coverage note in the reader's language. */
function said(answer: InsightsAnswer, locale: Locale): InsightsAnswer {
  const { days, records } = answer.coverage;
  return { ...answer, coverage: { ...answer.coverage, note: translate(locale, coverageNote(days, records, locale)) } };
}

/** Answers kept per process (each a few tens of kilobytes). */
const CACHED_ANSWERS = 64;

export class InsightsService {
  /**
   * Answers already computed, by scope, query and the days counted. Complete days never change (they
   * are settled, and a record of one is never stored twice), so an answer over the same counted days
   * is the same answer; a day completed, or the copy cut or deleted, changes the key.
   */
  private readonly answers = new Map<string, InsightsAnswer>();

  constructor(private readonly deps: InsightsServiceDeps) {}

  /**
   * Insights for the query, its coverage note said in `locale` (the route passes the request's;
   * English for callers outside a request: benchmarks, tests). The note is said after the answer is
   * kept, so readers of either language share one computed answer.
   */
  async get(
    account: { apiKey: string; enterpriseId: string | null },
    query: TransactionsQuery,
    locale: Locale = 'en',
  ): Promise<InsightsAnswer> {
    return said(await this.compute(account, query), locale);
  }

  private async compute(
    account: { apiKey: string; enterpriseId: string | null },
    query: TransactionsQuery,
  ): Promise<InsightsAnswer> {
    const started = performance.now();
    const scope = scopeOf(account).key;

    const [complete, stored] = await Promise.all([
      this.deps.index.completeDays(scope),
      this.deps.history.listDays(scope),
    ]);
    const days = coverDays(query.from.getTime(), query.to.getTime(), query.tz, {
      complete,
      syncing: stored.filter((d) => d.state === 'syncing' || d.state === 'building').map((d) => d.day),
      settledBefore: this.deps.policy.settledBefore(this.deps.now()),
    });
    const counted = days.filter((d) => d.state === 'complete');
    const cacheKey = JSON.stringify([
      scope,
      queryKey({ ...query, page: 1, pageSize: QUERY_DEFAULTS.pageSize, sort: UPSTREAM_SORT, sortOrder: 'desc' }),
      days.map((d) => d.state),
    ]);
    const cached = this.answers.get(cacheKey);
    if (cached) {
      // Most recently used last: the oldest is the one dropped.
      this.answers.delete(cacheKey);
      this.answers.set(cacheKey, cached);
      return { ...cached, _meta: { ...cached._meta, cached: true, tookMs: Math.round(performance.now() - started) } };
    }
    const local = localSearchOf(scope, query, countedRanges(days));
    const search = {
      scope,
      where: local.where,
      ...(local.text ? { text: local.text } : {}),
      zone: query.tz,
      days: counted,
    };

    const hourly = readsByHour(query.from.getTime(), query.to.getTime());
    const read = await this.deps.insights.read(search, { hourly });
    const { source, ...sums } = read.sums;
    const hours = read.hourly;
    // Latencies day by day: each day's percentiles, then the whole range's from all of them.
    const byDay = read.latencies;
    const latencies = counted.map((d) => byDay.get(d.index) ?? new Float64Array(0));
    const all = concat(latencies);
    const histogram = histogramOf(all);
    const latencyMs = percentilesOf(all);
    const latencyOfDay = new Map(counted.map((d, i) => [d.day, percentilesOf(latencies[i]!)]));

    const folded = foldSums(
      sums,
      hours,
      query.tz,
      counted.map((d) => d.index),
      hourly ? hoursOf(counted) : [],
    );
    const coverage = {
      from: counted[0]?.day ?? null,
      to: counted[counted.length - 1]?.day ?? null,
      complete: counted.length === days.length,
      records: folded.total,
      zone: query.tz,
      note: '',
      days: days.map((d) => ({ day: d.day, state: d.state })),
    };

    const answer: InsightsAnswer = {
      coverage,
      ...folded,
      byDay: folded.byDay.map((d) => ({
        ...d,
        latencyMs: latencyOfDay.get(d.day) ?? { p50: null, p90: null, p99: null, count: 0 },
      })),
      latencyMs,
      latencyHistogram: LATENCY_BUCKETS.map((b, i) => ({ ...b, count: histogram[i]! })),
      _meta: {
        source: 'history',
        calls: 0,
        computedFrom: source,
        cached: false,
        tookMs: Math.round(performance.now() - started),
      },
    };
    this.answers.set(cacheKey, answer);
    if (this.answers.size > CACHED_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  /** Forgets the answers kept (for measuring the work itself). */
  forgetAnswers(): void {
    this.answers.clear();
  }
}
