'use client';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/i18n/format';
import { useNarrowScreen } from '../common/use-narrow-screen';
import { ChartPanel } from './chart-panel';
import { colourOf } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, useDrill, rowOf } from './chart-kit';

/** The most frequent DLR error codes, each explained, coloured by whether a resend can help. */
export function DlrChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  // On a phone the axis names the code only (its meaning is in the tooltip and the table).
  const narrow = useNarrowScreen();
  // The axis says what each code means; the colour whether a resend can help.
  const rows = data.dlrErrors
    .slice(0, 10)
    .map((e) => ({ ...e, label: `${e.code} · ${e.reason.replace(/\.$/, '').split(':')[0]}` }));
  const kind = (final: boolean | null) =>
    final === null ? 'unknown code' : final ? 'final: a resend will not help' : 'temporary: worth a resend';
  return (
    <ChartPanel
      wide
      title="Most frequent DLR error codes"
      description="Each code with its meaning and whether the failure is final. Click a bar for those messages."
      testId="chart-dlr"
      chart={
        rows.length === 0 ? (
          <p className={styles.empty}>No DLR error code in these days.</p>
        ) : (
          <BarChart
            data={rows}
            layout="vertical"
            responsive
            style={{ width: '100%', height: Math.max(160, 40 + rows.length * 30) }}
            margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
          >
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" tick={{ fontSize: 12 }} allowDecimals={false} />
            <YAxis
              type="category"
              dataKey={narrow ? 'code' : 'label'}
              width={narrow ? 48 : 260}
              tick={{ fontSize: 12 }}
            />
            <Tooltip
              formatter={(v) => formatCount(Number(v))}
              labelFormatter={(label) => {
                const e = rows.find((r) => r.label === label || r.code === label);
                return e ? `${e.code}: ${e.reason} (${kind(e.final)})` : String(label);
              }}
            />
            <Bar
              dataKey="count"
              name="Messages"
              cursor="pointer"
              isAnimationActive={false}
              onClick={(item) => {
                const row = rowOf<{ code: string }>(item);
                if (row) drill.go({ filters: { 'dlr-error-code': row.code } });
              }}
            >
              {rows.map((r) => (
                <Cell key={r.code} fill={r.final === false ? colourOf('ENROUTE') : colourOf('UNDELIV')} />
              ))}
            </Bar>
          </BarChart>
        )
      }
      legend={
        <p className={styles.swatches}>
          <span className={styles.swatch} style={{ background: colourOf('UNDELIV') }} /> final: a resend will not help
          <span className={styles.swatch} style={{ background: colourOf('ENROUTE') }} /> temporary: worth a resend
        </p>
      }
      table={
        <table className={styles.table}>
          <caption>DLR error codes, most frequent first</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Meaning</th>
              <th scope="col">Final or temporary</th>
              <th scope="col">Messages</th>
            </tr>
          </thead>
          <tbody>
            {data.dlrErrors.map((e) => (
              <tr key={e.code}>
                <th scope="row">
                  <Link href={drill.href({ filters: { 'dlr-error-code': e.code } })}>{e.code}</Link>
                </th>
                <td>{e.reason}</td>
                <td data-final={String(e.final)}>{kind(e.final)}</td>
                <td>{formatCount(e.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
