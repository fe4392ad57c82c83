'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { Outcome } from '@/lib/insights';
import { useFormat } from '@/lib/i18n/use-format';
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
  column,
  testId,
  rows,
  query,
}: {
  /** "By network": the chart's and the table's name. */
  title: string;
  /** "Network": the table's first column. */
  column: string;
  testId: string;
  rows: BreakdownRow[];
  query: DrillQueries;
}) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const drill = useDrill(query);
  const shown = rows.slice(0, 12);
  return (
    <ChartPanel
      title={t('breakdownTitle', { by: title })}
      description={
        rows.length > shown.length
          ? t('breakdownLargest', { shown: shown.length, all: rows.length })
          : t('breakdownClick')
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
          <XAxis
            type="number"
            tick={{ fontSize: 12 }}
            allowDecimals={false}
            tickFormatter={(v) => f.count(Number(v))}
          />
          <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => f.count(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {OUTCOMES.map((o) => (
            <Bar
              key={o.key}
              dataKey={o.key}
              name={t(`outcome.${o.key}`)}
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
              <th scope="col">{column}</th>
              <th scope="col">{t('messages')}</th>
              <th scope="col">{t('outcome.delivered')}</th>
              <th scope="col">{t('outcome.failed')}</th>
              <th scope="col">{t('outcome.other')}</th>
              <th scope="col">{t('rate')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">
                  {/* The value's own name (a network, a sender ID, a key): data, in whatever language it has. */}
                  <Link href={drill.href(r.drill)} translate="no">
                    {r.label}
                  </Link>
                </th>
                <td>{f.count(r.total)}</td>
                <td>{f.count(r.delivered)}</td>
                <td>{f.count(r.failed)}</td>
                <td>{f.count(r.other)}</td>
                <td>{formatRate(r.rate, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
