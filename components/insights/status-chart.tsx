'use client';
import Link from 'next/link';
import { Cell, Legend, Pie, PieChart, Tooltip } from 'recharts';
import { formatCount } from '@/lib/i18n/format';
import { formatRate } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { colourOf, STATUS_ORDER } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, statusLabel, useDrill, rowOf } from './chart-kit';

/** Messages by status, as shares of the whole. */
export function StatusChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  const rows = STATUS_ORDER.filter((s) => data.byStatus[s]).map((s) => ({
    status: s,
    name: statusLabel(s),
    value: data.byStatus[s]!,
  }));
  return (
    <ChartPanel
      title="Messages by status"
      description="Click a slice or a legend entry for those messages."
      testId="chart-status"
      chart={
        <PieChart responsive style={chartStyle}>
          <Pie
            data={rows}
            dataKey="value"
            nameKey="name"
            innerRadius="45%"
            outerRadius="80%"
            cursor="pointer"
            isAnimationActive={false}
            onClick={(item) => {
              const row = rowOf<{ status: string }>(item);
              if (row) drill.go({ filters: { status: row.status } });
            }}
          >
            {rows.map((r) => (
              <Cell key={r.status} fill={colourOf(r.status)} data-status={r.status} />
            ))}
          </Pie>
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Legend
            onClick={(e) => {
              const row = rowOf<{ status: string }>(e);
              if (row) drill.go({ filters: { status: row.status } });
            }}
            wrapperStyle={{ cursor: 'pointer', fontSize: 12 }}
          />
        </PieChart>
      }
      table={
        <table className={styles.table}>
          <caption>Messages by status</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Messages</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.status}>
                <th scope="row">
                  <Link href={drill.href({ filters: { status: r.status } })}>
                    {r.name} ({r.status})
                  </Link>
                </th>
                <td>{formatCount(r.value)}</td>
                <td>{formatRate(data.total ? r.value / data.total : null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
