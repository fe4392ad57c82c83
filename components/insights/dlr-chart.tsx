'use client';
import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '@/lib/i18n/use-format';
import { useNarrowScreen } from '../common/use-narrow-screen';
import { ChartPanel } from './chart-panel';
import { colourOf } from './status-colors';
import styles from './insights.module.css';
import { type ChartsProps, useDrill, rowOf, useDlrMeaning } from './chart-kit';

/** The most frequent DLR error codes, each explained, coloured by whether a resend can help. */
export function DlrChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const t = useTranslations('insights.chart');
  const f = useFormat();
  const meaningOf = useDlrMeaning();
  const drill = useDrill(query);
  // On a phone the axis names the code only (its meaning is in the tooltip and the table).
  const narrow = useNarrowScreen();
  // The codes with their meaning in the page's language; the raw code stays beside it.
  const errors = data.dlrErrors.map((e) => ({ ...e, meaning: meaningOf(e.code, e.reason) }));
  // The axis says what each code means; the colour whether a resend can help.
  const rows = errors
    .slice(0, 10)
    .map((e) => ({ ...e, label: `${e.code} · ${e.meaning.replace(/[.。]$/, '').split(/[:：]/)[0]}` }));
  const kind = (final: boolean | null) => (final === null ? t('unknownCode') : final ? t('final') : t('temporary'));
  return (
    <ChartPanel
      wide
      title={t('dlrTitle')}
      description={t('dlrNote')}
      testId="chart-dlr"
      chart={
        rows.length === 0 ? (
          <p className={styles.empty}>{t('dlrNone')}</p>
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
              formatter={(v) => f.count(Number(v))}
              labelFormatter={(label) => {
                const e = rows.find((r) => r.label === label || r.code === label);
                return e ? t('dlrTooltip', { code: e.code, meaning: e.meaning, kind: kind(e.final) }) : String(label);
              }}
            />
            <Bar
              dataKey="count"
              name={t('messages')}
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
          <span className={styles.swatch} style={{ background: colourOf('UNDELIV') }} /> {t('final')}
          <span className={styles.swatch} style={{ background: colourOf('ENROUTE') }} /> {t('temporary')}
        </p>
      }
      table={
        <table className={styles.table}>
          <caption>{t('dlrCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('code')}</th>
              <th scope="col">{t('meaning')}</th>
              <th scope="col">{t('finalOrTemporary')}</th>
              <th scope="col">{t('messages')}</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e) => (
              <tr key={e.code}>
                <th scope="row">
                  <Link href={drill.href({ filters: { 'dlr-error-code': e.code } })}>{e.code}</Link>
                </th>
                <td>{e.meaning}</td>
                <td data-final={String(e.final)}>{kind(e.final)}</td>
                <td>{f.count(e.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
