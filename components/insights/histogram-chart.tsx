'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '@/lib/i18n/use-format';
import { bucketBounds, type Drill } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { RATE_COLOUR } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill, rowOf } from './chart-kit';

/** How many messages took how long to be delivered (submitted to delivered). */
export function HistogramChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const drill = useDrill(query);
  // A bucket opens the messages delivered after its lower bound (the filter has no upper bound).
  const drillOf = (fromMs: number): Drill => ({ filters: { 'latency-min': String(Math.floor(fromMs / 1000)) } });
  // Each bucket named in the reader's units (`1–5 min`, `1分〜5分`); the server's label is its English.
  const buckets = data.latencyHistogram.map((b) => {
    const { from, to } = bucketBounds(b, locale);
    const label =
      b.toMs === null
        ? t('bucketOver', { from })
        : b.fromMs === 0
          ? t('bucketUnder', { to })
          : t('bucketBetween', { from, to });
    return { ...b, label };
  });
  return (
    <ChartPanel
      title={t('histogramTitle')}
      description={t('histogramNote')}
      testId="chart-histogram"
      chart={
        <BarChart data={buckets} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
          <YAxis tick={{ fontSize: 12 }} allowDecimals={false} tickFormatter={(v) => f.count(Number(v))} />
          <Tooltip formatter={(v) => f.count(Number(v))} />
          <Bar
            dataKey="count"
            name={t('messages')}
            fill={RATE_COLOUR}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(item) => {
              const row = rowOf<{ fromMs: number }>(item);
              if (row) drill.go(drillOf(row.fromMs));
            }}
          />
        </BarChart>
      }
      table={
        <table className={styles.table}>
          <caption>{t('histogramCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('latency')}</th>
              <th scope="col">{t('messages')}</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.fromMs}>
                <th scope="row">
                  <Link href={drill.href(drillOf(b.fromMs))}>{b.label}</Link>
                </th>
                <td>{f.count(b.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
