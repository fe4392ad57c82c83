'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '@/lib/i18n/use-format';
import { formatRate, shortDay } from '@/lib/insights';
import { type Drill } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { colourOf, RATE_COLOUR, STATUS_ORDER } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, percentTick, useDrill, rowOf, useStatusLabel } from './chart-kit';

/** Messages per day (or hour, up to a week) by outcome, with the delivery rate. */
export function VolumeChart({ data, query, byHour }: ChartsProps) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const statusLabel = useStatusLabel();
  const drill = useDrill(query);
  const present = STATUS_ORDER.filter((s) => data.byStatus[s]);
  const rows = (
    byHour
      ? data.byHour.map((h) => ({ ...h, label: h.hour.slice(5), key: h.hour }))
      : data.byDay.map((d) => ({ ...d, label: shortDay(d.day, locale), key: d.day }))
  ).map((r) => ({
    ...r,
    ...Object.fromEntries(present.map((s) => [s, r.byStatus[s] ?? 0])),
  }));
  const periodDrill = (key: string): Drill => (byHour ? { hour: key } : { day: key });
  const rateName = t('rate');
  const zone = query.query.tz;
  return (
    <ChartPanel
      wide
      title={t('volumeTitle', { byHour: String(byHour), zone })}
      description={t('volumeNote')}
      testId="chart-volume"
      chart={
        <ComposedChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis
            yAxisId="count"
            tick={{ fontSize: 12 }}
            allowDecimals={false}
            tickFormatter={(v) => f.count(Number(v))}
          />
          <YAxis
            yAxisId="rate"
            orientation="right"
            domain={[0, 1]}
            tickFormatter={percentTick(locale)}
            tick={{ fontSize: 12 }}
          />
          <Tooltip formatter={(v, name) => (name === rateName ? formatRate(Number(v), locale) : f.count(Number(v)))} />
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
            name={rateName}
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
          <caption>{t('volumeCaption', { byHour: String(byHour), zone })}</caption>
          <thead>
            <tr>
              <th scope="col">{byHour ? t('hour') : t('day')}</th>
              <th scope="col">{t('messages')}</th>
              <th scope="col">{rateName}</th>
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
                  <Link href={drill.href(periodDrill(r.key))}>{f.day(r.key)}</Link>
                </th>
                <td>{f.count(r.total)}</td>
                <td>{formatRate(r.rate, locale)}</td>
                {present.map((s) => (
                  <td key={s}>
                    {r.byStatus[s] ? (
                      <Link href={drill.href({ ...periodDrill(r.key), filters: { status: s } })}>
                        {f.count(r.byStatus[s])}
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
