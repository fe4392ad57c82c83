'use client';
import Link from 'next/link';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/i18n/format';
import { formatPrice, shortDay } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { SERIES_COLOURS } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill, rowOf } from './chart-kit';

/** Message parts and cost per day, per currency. */
export function CostChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  const currencies = data.price.map((p) => p.currency);
  const rows = data.byDay.map((d) => ({
    day: d.day,
    label: shortDay(d.day),
    parts: d.parts,
    ...Object.fromEntries(currencies.map((c) => [c, Number(d.price.find((p) => p.currency === c)?.total ?? 0)])),
  }));
  const totals =
    data.price.map((p) => `${formatPrice(p.total)} ${p.currency || '(no currency)'}`).join(', ') || 'nothing';
  return (
    <ChartPanel
      wide
      title={`Message parts and cost per day: ${formatCount(data.parts)} parts, ${totals}`}
      description="Sums of the records' own prices, to the last decimal in the table, per currency. Click a bar for that day's messages."
      testId="chart-cost"
      chart={
        <ComposedChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis yAxisId="parts" tick={{ fontSize: 12 }} allowDecimals={false} />
          <YAxis yAxisId="cost" orientation="right" tick={{ fontSize: 12 }} />
          <Tooltip
            formatter={(v, name) =>
              name === 'Parts'
                ? formatCount(Number(v))
                : Number(v).toLocaleString('en-US', { maximumFractionDigits: 2 })
            }
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            yAxisId="parts"
            dataKey="parts"
            name="Parts"
            fill="#9bb6df"
            cursor="pointer"
            isAnimationActive={false}
            onClick={(item) => {
              const row = rowOf<{ day: string }>(item);
              if (row) drill.go({ day: row.day });
            }}
          />
          {currencies.map((c, i) => (
            <Line
              key={c}
              yAxisId="cost"
              dataKey={c}
              name={`Cost (${c || 'no currency'})`}
              stroke={SERIES_COLOURS[(i + 1) % SERIES_COLOURS.length]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      }
      table={
        <table className={styles.table}>
          <caption>Message parts and cost per day ({query.query.tz})</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Messages</th>
              <th scope="col">Parts</th>
              {currencies.map((c) => (
                <th key={c} scope="col">
                  Cost ({c || 'no currency'})
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.byDay.map((d) => (
              <tr key={d.day}>
                <th scope="row">
                  <Link href={drill.href({ day: d.day })}>{d.day}</Link>
                </th>
                <td>{formatCount(d.total)}</td>
                <td>{formatCount(d.parts)}</td>
                {currencies.map((c) => (
                  <td key={c} className={styles.number}>
                    {d.price.find((p) => p.currency === c)?.total ?? '0.00000000'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>{formatCount(data.total)}</td>
              <td>{formatCount(data.parts)}</td>
              {data.price.map((p) => (
                <td key={p.currency} className={styles.number} data-testid={`price-total-${p.currency}`}>
                  {p.total}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      }
    />
  );
}
