/**
 * What the charts of Insights share: where a click leads (useDrill), their size, the outcome
 * series, tick and status labels, and the row a click hands over.
 */
import { useRouter } from 'next/navigation';
import type { InsightsAnswer } from '@/lib/insights';
import { useTranslations } from 'next-intl';
import { DLR_ERRORS } from '@/lib/cdr/dlr-errors';
import { statusInfo } from '@/lib/cdr/status';
import type { Locale } from '@/lib/i18n/locales';
import { formatRate } from '@/lib/insights';
import type { QuerySelection } from '@/lib/query/query';
import { drillHref, type Drill } from '@/lib/insights';
import { colourOf } from './status-colors';

/** Where clicks lead: a day or an hour of the query itself; the whole range, only its counted days (countedQuery). */
export interface DrillQueries {
  query: QuerySelection;
  counted: QuerySelection;
}

export interface ChartsProps {
  data: InsightsAnswer;
  query: DrillQueries;
  /** Per hour (up to a week) or per day. */
  byHour: boolean;
}

export const HEIGHT = 280;
export const chartStyle = { width: '100%', height: HEIGHT } as const;
/** The outcome series; each is named by insights.chart.outcome.<key> in the page's language. */
export const OUTCOMES = [
  { key: 'delivered', colour: colourOf('DELIVRD') },
  { key: 'failed', colour: colourOf('UNDELIV') },
  { key: 'other', colour: colourOf('ENROUTE') },
] as const;

/** A rate axis tick: whole percent, written as the reader's language writes a percentage. */
export const percentTick = (locale: Locale) => (v: number) => formatRate(Math.round(v * 100) / 100, locale);

/**
 * A status's name in the page's language (cdr.status.<code>.label) with its raw code beside it, as
 * providers' consoles show them (`配信済み (DELIVRD)`); the code alone for one the dashboard does
 * not know: `useStatusLabel()(s)`.
 */
export function useStatusLabel(): (status: string) => string {
  const t = useTranslations('cdr.status');
  return (s) => {
    const info = statusInfo(s);
    return info ? `${t(`${info.value}.label`)} (${info.value})` : s;
  };
}

export function useDrill({ query, counted }: DrillQueries) {
  const router = useRouter();
  const href = (d: Drill) => drillHref(d.day || d.hour ? query : counted, d);
  return { href, go: (d: Drill) => router.push(href(d)) };
}

/** The payload row of a clicked bar or slice (Recharts hands it over in `payload`). */
export function rowOf<T>(item: unknown): T | undefined {
  return (item as { payload?: T } | undefined)?.payload;
}

/**
 * A DLR error code's meaning in the page's language (cdr.dlr.<code>), the server's own words for a
 * code the catalogue does not explain: `useDlrMeaning()(code, reason)`.
 */
export function useDlrMeaning(): (code: string, reason: string) => string {
  const t = useTranslations('cdr.dlr');
  return (code, reason) => {
    const key = code === '' ? undefined : [String(Number(code)), code].find((k) => k in DLR_ERRORS);
    return key ? t(key as keyof typeof DLR_ERRORS & Parameters<typeof t>[0]) : reason;
  };
}
