/**
 * What the charts of Insights share: where a click leads (useDrill), their size, the outcome
 * series, tick and status labels, and the row a click hands over.
 */
import { useRouter } from 'next/navigation';
import type { InsightsAnswer } from '@/lib/insights';
import { statusInfo } from '@/lib/cdr/status';
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
export const OUTCOMES = [
  { key: 'delivered', label: 'Delivered', colour: colourOf('DELIVRD') },
  { key: 'failed', label: 'Failed', colour: colourOf('UNDELIV') },
  { key: 'other', label: 'No final report', colour: colourOf('ENROUTE') },
] as const;

export const percentTick = (v: number) => `${Math.round(v * 100)} %`;
export const statusLabel = (s: string) => statusInfo(s)?.label ?? s;

export function useDrill({ query, counted }: DrillQueries) {
  const router = useRouter();
  const href = (d: Drill) => drillHref(d.day || d.hour ? query : counted, d);
  return { href, go: (d: Drill) => router.push(href(d)) };
}

/** The payload row of a clicked bar or slice (Recharts hands it over in `payload`). */
export function rowOf<T>(item: unknown): T | undefined {
  return (item as { payload?: T } | undefined)?.payload;
}
