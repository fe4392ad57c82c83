'use client';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { Outcome } from '@/lib/insights';
import { formatCount } from '@/lib/i18n/format';
import { formatRate } from '@/lib/insights';
import { type Drill } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import styles from './insights.module.css';
import { type DrillQueries, OUTCOMES, useDrill, rowOf } from './chart-kit';

/** One breakdown of Insights (by network, sender ID or API key): each value's volume by outcome and its delivery rate. */
export interface BreakdownRow extends Outcome {
  label: string;
  drill: Drill;
}

export function BreakdownChart({
  title,
  testId,
  rows,
  query,
}: {
  title: string;
  testId: string;
  rows: BreakdownRow[];
  query: DrillQueries;
}) {
  const drill = useDrill(query);
  const shown = rows.slice(0, 12);
  return (
    <ChartPanel
      title={`${title}: volume and delivery rate`}
      description={
        rows.length > shown.length
          ? `The ${shown.length} largest of ${rows.length}; the table lists all.`
          : 'Click a bar for those messages.'
      }
      testId={testId}
      chart={
        <BarChart
          data={shown}
          layout="vertical"
          responsive
          style={{ width: '100%', height: Math.max(160, 40 + shown.length * 34) }}
          margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tick={{ fontSize: 12 }} allowDecimals={false} />
          <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {OUTCOMES.map((o) => (
            <Bar
              key={o.key}
              dataKey={o.key}
              name={o.label}
              stackId="outcome"
              fill={o.colour}
              cursor="pointer"
              isAnimationActive={false}
              onClick={(item) => {
                const row = rowOf<BreakdownRow>(item);
                if (row) drill.go(row.drill);
              }}
            />
          ))}
        </BarChart>
      }
      table={
        <table className={styles.table}>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase())}</th>
              <th scope="col">Messages</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed</th>
              <th scope="col">No final report</th>
              <th scope="col">Delivery rate</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">
                  <Link href={drill.href(r.drill)}>{r.label}</Link>
                </th>
                <td>{formatCount(r.total)}</td>
                <td>{formatCount(r.delivered)}</td>
                <td>{formatCount(r.failed)}</td>
                <td>{formatCount(r.other)}</td>
                <td>{formatRate(r.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
