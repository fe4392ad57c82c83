'use client';
/**
 * The charts of Insights (Recharts), each with its table view (ChartPanel). A click on a bar, a
 * slice or a legend entry — or on a link in a table — opens the transactions table filtered to it.
 * Figures come from GET /api/insights: days and hours are already in the query's zone.
 */
import { useTranslations } from 'next-intl';
import styles from './insights.module.css';
import type { ChartsProps } from './chart-kit';
import { VolumeChart } from './volume-chart';
import { StatusChart } from './status-chart';
import { BreakdownChart } from './breakdown-chart';
import { DlrChart } from './dlr-chart';
import { LatencyChart } from './latency-chart';
import { HistogramChart } from './histogram-chart';
import { CostChart } from './cost-chart';

export function InsightsCharts({ data, query, byHour }: ChartsProps) {
  const t = useTranslations('insights.chart');
  return (
    <div className={styles.charts}>
      <VolumeChart data={data} query={query} byHour={byHour} />
      <StatusChart data={data} query={query} />
      <BreakdownChart
        title={t('byNetwork')}
        column={t('network')}
        testId="chart-network"
        query={query}
        rows={data.byNetwork.map((r) => ({
          ...r,
          label: r.network_name || r.network_code,
          drill: { filters: { network: r.network_code } },
        }))}
      />
      <BreakdownChart
        title={t('bySender')}
        column={t('sender')}
        testId="chart-sender"
        query={query}
        rows={data.bySender.map((r) => ({
          ...r,
          label: r.from_address || t('noSender'),
          drill: { filters: { oa: r.from_address } },
        }))}
      />
      <BreakdownChart
        title={t('byApiKey')}
        column={t('apiKey')}
        testId="chart-api-key"
        query={query}
        rows={data.byApiKey.map((r) => ({
          ...r,
          label: r.api_key_name ? `${r.api_key_name} (${r.api_key})` : r.api_key,
          drill: { filters: { 'api-key': r.api_key } },
        }))}
      />
      <DlrChart data={data} query={query} />
      <LatencyChart data={data} query={query} />
      <HistogramChart data={data} query={query} />
      <CostChart data={data} query={query} />
    </div>
  );
}
