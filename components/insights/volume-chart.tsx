'use client';
import Link from 'next/link';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/i18n/format';
import { formatRate, shortDay } from '@/lib/insights';
import { type Drill } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { colourOf, RATE_COLOUR, STATUS_ORDER } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, percentTick, statusLabel, useDrill, rowOf } from './chart-kit';

/** Messages per day (or hour, up to a week) by outcome, with the delivery rate. */
export function VolumeChart({ data, query, byHour }: ChartsProps) {
  const drill = useDrill(query);
  const present = STATUS_ORDER.filter((s) => data.byStatus[s]);
  const rows = (
    byHour
      ? data.byHour.map((h) => ({ ...h, label: h.hour.slice(5), key: h.hour }))
      : data.byDay.map((d) => ({ ...d, label: shortDay(d.day), key: d.day }))
  ).map((r) => ({
    ...r,
    ...Object.fromEntries(present.map((s) => [s, r.byStatus[s] ?? 0])),
  }));
  const periodDrill = (key: string): Drill => (byHour ? { hour: key } : { day: key });
  return (
    <ChartPanel
      wide
      title={`Messages per ${byHour ? 'hour' : 'day'} by status, with the delivery rate (${query.query.tz})`}
      description="Click a bar for that period's messages of that status, a legend entry for every message of that status."
      testId="chart-volume"
      chart={
        <ComposedChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis yAxisId="count" tick={{ fontSize: 12 }} allowDecimals={false} />
          <YAxis
            yAxisId="rate"
            orientation="right"
            domain={[0, 1]}
            tickFormatter={percentTick}
            tick={{ fontSize: 12 }}
          />
          <Tooltip
            formatter={(v, name) => (name === 'Delivery rate' ? formatRate(Number(v)) : formatCount(Number(v)))}
          />
          <Legend
            onClick={(e) => e.dataKey && e.dataKey !== 'rate' && drill.go({ filters: { status: String(e.dataKey) } })}
            wrapperStyle={{ cursor: 'pointer', fontSize: 12 }}
          />
          {present.map((s) => (
            <Bar
              key={s}
              dataKey={s}
              name={statusLabel(s)}
              stackId="status"
              yAxisId="count"
              fill={colourOf(s)}
              cursor="pointer"
              isAnimationActive={false}
              onClick={(item) => {
                const row = rowOf<{ key: string }>(item);
                if (row) drill.go({ ...periodDrill(row.key), filters: { status: s } });
              }}
            />
          ))}
          <Line
            yAxisId="rate"
            dataKey="rate"
            name="Delivery rate"
            stroke={RATE_COLOUR}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        </ComposedChart>
      }
      table={
        <table className={styles.table}>
          <caption>
            Messages per {byHour ? 'hour' : 'day'} ({query.query.tz}) by status
          </caption>
          <thead>
            <tr>
              <th scope="col">{byHour ? 'Hour' : 'Day'}</th>
              <th scope="col">Messages</th>
              <th scope="col">Delivery rate</th>
              {present.map((s) => (
                <th key={s} scope="col">
                  {statusLabel(s)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">
                  <Link href={drill.href(periodDrill(r.key))}>{r.key}</Link>
                </th>
                <td>{formatCount(r.total)}</td>
                <td>{formatRate(r.rate)}</td>
                {present.map((s) => (
                  <td key={s}>
                    {r.byStatus[s] ? (
                      <Link href={drill.href({ ...periodDrill(r.key), filters: { status: s } })}>
                        {formatCount(r.byStatus[s])}
                      </Link>
                    ) : (
                      0
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
