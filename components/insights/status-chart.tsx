'use client';
import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { Cell, Legend, Pie, PieChart, Tooltip } from 'recharts';
import { useFormat } from '@/lib/i18n/use-format';
import { formatRate } from '@/lib/insights';
import { ChartPanel } from './chart-panel';
import { colourOf, STATUS_ORDER } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, chartStyle, useDrill, rowOf, useStatusLabel } from './chart-kit';

/** Messages by status, as shares of the whole. */
export function StatusChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const locale = useLocale();
  const statusLabel = useStatusLabel();
  const drill = useDrill(query);
  const rows = STATUS_ORDER.filter((s) => data.byStatus[s]).map((s) => ({
    status: s,
    name: statusLabel(s),
    value: data.byStatus[s]!,
  }));
  return (
    <ChartPanel
      title={t('statusTitle')}
      description={t('statusNote')}
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
          <Tooltip formatter={(v) => f.count(Number(v))} />
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
          <caption>{t('statusTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('messages')}</th>
              <th scope="col">{t('share')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.status}>
                <th scope="row">
                  <Link href={drill.href({ filters: { status: r.status } })}>{r.name}</Link>
                </th>
                <td>{f.count(r.value)}</td>
                <td>{formatRate(data.total ? r.value / data.total : null, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
