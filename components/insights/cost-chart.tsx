'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { INTL_LOCALE } from '@/lib/i18n/locales';
import { useFormat } from '@/lib/i18n/use-format';
import { formatPrice, shortDay } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { SERIES_COLOURS } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill, rowOf } from './chart-kit';

/** Message parts and cost per day, per currency. */
export function CostChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const drill = useDrill(query);
  const currencies = data.price.map((p) => p.currency);
  const rows = data.byDay.map((d) => ({
    day: d.day,
    label: shortDay(d.day, locale),
    parts: d.parts,
    ...Object.fromEntries(currencies.map((c) => [c, Number(d.price.find((p) => p.currency === c)?.total ?? 0)])),
  }));
  // Money as the reader writes it (`¥1,234.56`, `JPY 1,234.56`); a sum without a currency as a number.
  const money = (total: string, currency: string) =>
    currency ? f.price(total, currency) : `${formatPrice(total)} (${t('noCurrency')})`;
  const totals = data.price.map((p) => money(p.total, p.currency)).join(', ') || t('costNothing');
  const partsName = t('parts');
  const costName = (c: string) => t('cost', { currency: c || t('noCurrency') });
  return (
    <ChartPanel
      wide
      title={t('costTitle', { parts: data.parts, totals })}
      description={t('costNote')}
      testId="chart-cost"
      chart={
        <ComposedChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis
            yAxisId="parts"
            tick={{ fontSize: 12 }}
            allowDecimals={false}
            tickFormatter={(v) => f.count(Number(v))}
          />
          <YAxis yAxisId="cost" orientation="right" tick={{ fontSize: 12 }} />
          <Tooltip
            formatter={(v, name) =>
              name === partsName
                ? f.count(Number(v))
                : Number(v).toLocaleString(INTL_LOCALE[locale], { maximumFractionDigits: 2 })
            }
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            yAxisId="parts"
            dataKey="parts"
            name={partsName}
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
              name={costName(c)}
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
          <caption>{t('costCaption', { zone: query.query.tz })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              <th scope="col">{t('messages')}</th>
              <th scope="col">{partsName}</th>
              {currencies.map((c) => (
                <th key={c} scope="col">
                  {costName(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.byDay.map((d) => (
              <tr key={d.day}>
                <th scope="row">
                  <Link href={drill.href({ day: d.day })}>{f.day(d.day)}</Link>
                </th>
                <td>{f.count(d.total)}</td>
                <td>{f.count(d.parts)}</td>
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
              <th scope="row">{t('total')}</th>
              <td>{f.count(data.total)}</td>
              <td>{f.count(data.parts)}</td>
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
