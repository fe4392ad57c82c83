'use client';
/**
 * One chart of Insights with its table: the chart for the eye, the table (the same figures, with
 * links to the matching transactions) for the keyboard, a screen reader and print. A toggle shows
 * the table instead of the chart; the figure is named by its title.
 */
import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import styles from './insights.module.css';

export interface ChartPanelProps {
  title: string;
  /** What the chart shows and what a click on it does. */
  description?: string;
  chart: ReactNode;
  /** Said under the chart (a key the chart's own legend cannot give). */
  legend?: ReactNode;
  table: ReactNode;
  testId: string;
  wide?: boolean;
}

export function ChartPanel({ title, description, chart, legend, table, testId, wide }: ChartPanelProps) {
  const t = useTranslations('insights.chart');
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  return (
    <figure
      className={`panel ${styles.chartPanel}`}
      data-wide={wide ? 'true' : undefined}
      data-testid={testId}
      aria-labelledby={`${id}-title`}
    >
      <div className={styles.chartHead}>
        <figcaption id={`${id}-title`} className={styles.chartTitle}>
          {title}
        </figcaption>
        <button
          type="button"
          className="button button-small"
          aria-pressed={asTable}
          onClick={() => setAsTable((v) => !v)}
          data-testid={`${testId}-toggle`}
        >
          {asTable ? t('showChart') : t('showTable')}
        </button>
      </div>
      {description ? <p className={styles.chartNote}>{description}</p> : null}
      <div className={styles.chartBody} hidden={asTable} aria-hidden="true" data-testid={`${testId}-chart`}>
        {chart}
        {legend}
      </div>
      <div className={styles.tableBody} data-shown={asTable ? 'true' : undefined}>
        {table}
      </div>
    </figure>
  );
}
