'use client';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/i18n/format';
import { type Drill } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { RATE_COLOUR } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill, rowOf } from './chart-kit';

/** How many messages took how long to be delivered (submitted to delivered). */
export function HistogramChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  // A bucket opens the messages delivered after its lower bound (the filter has no upper bound).
  const drillOf = (fromMs: number): Drill => ({ filters: { 'latency-min': String(Math.floor(fromMs / 1000)) } });
  return (
    <ChartPanel
      title="Delivery latency: how many messages took how long"
      description="Click a bar for the messages delivered after that bucket's lower bound."
      testId="chart-histogram"
      chart={
        <BarChart
          data={data.latencyHistogram}
          responsive
          style={chartStyle}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
          <YAxis tick={{ fontSize: 12 }} allowDecimals={false} />
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Bar
            dataKey="count"
            name="Messages"
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
          <caption>Delivery latency histogram</caption>
          <thead>
            <tr>
              <th scope="col">Latency</th>
              <th scope="col">Messages</th>
            </tr>
          </thead>
          <tbody>
            {data.latencyHistogram.map((b) => (
              <tr key={b.label}>
                <th scope="row">
                  <Link href={drill.href(drillOf(b.fromMs))}>{b.label}</Link>
                </th>
                <td>{formatCount(b.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
