'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '@/lib/i18n/use-format';
import { formatLatency, shortDay } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { SERIES_COLOURS } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill } from './chart-kit';

/** Delivery latency percentiles per day. */
export function LatencyChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const latency = (ms: number | null) => formatLatency(ms, locale);
  const drill = useDrill(query);
  const rows = data.byDay.map((d) => ({
    day: d.day,
    label: shortDay(d.day, locale),
    p50: d.latencyMs.p50,
    p90: d.latencyMs.p90,
    p99: d.latencyMs.p99,
    count: d.latencyMs.count,
  }));
  return (
    <ChartPanel
      title={t('latencyTitle', {
        p50: latency(data.latencyMs.p50),
        p90: latency(data.latencyMs.p90),
        p99: latency(data.latencyMs.p99),
      })}
      description={t('latencyNote')}
      testId="chart-latency"
      chart={
        <LineChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis
            scale="log"
            domain={['auto', 'auto']}
            allowDataOverflow
            tickFormatter={(v) => latency(Number(v))}
            tick={{ fontSize: 12 }}
            width={64}
          />
          <Tooltip formatter={(v) => latency(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {(['p50', 'p90', 'p99'] as const).map((p, i) => (
            <Line
              key={p}
              dataKey={p}
              name={p}
              stroke={SERIES_COLOURS[i]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </LineChart>
      }
      table={
        <table className={styles.table}>
          <caption>{t('latencyCaption', { zone: query.query.tz })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              <th scope="col">{t('deliveredWithLatency')}</th>
              <th scope="col">p50</th>
              <th scope="col">p90</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day}>
                <th scope="row">
                  <Link href={drill.href({ day: r.day })}>{f.day(r.day)}</Link>
                </th>
                <td>{f.count(r.count)}</td>
                <td>{latency(r.p50)}</td>
                <td>{latency(r.p90)}</td>
                <td>{latency(r.p99)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
