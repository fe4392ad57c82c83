'use client';
/**
 * The charts of Insights (Recharts), each with its table view (ChartPanel). A click on a bar, a
 * slice or a legend entry — or on a link in a table — opens the transactions table filtered to it.
 * Figures come from GET /api/insights: days and hours are already in the query's zone.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, LineChart, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsAnswer, Outcome } from '@/lib/api/insights';
import { statusInfo } from '@/lib/cdr/status';
import type { QuerySelection } from '@/lib/query/query';
import { formatCount } from '@/lib/ui/format';
import { formatLatency, formatPrice, formatRate, shortDay } from '@/lib/ui/insights-format';
import { drillHref, type Drill } from '@/lib/ui/insights-links';
import { ChartPanel } from './chart-panel';
import { colourOf, RATE_COLOUR, SERIES_COLOURS, STATUS_ORDER } from './status-colors';
import styles from './insights.module.css';

/** Where clicks lead: a day or an hour of the query itself; the whole range, only its counted days (countedQuery). */
interface DrillQueries {
  query: QuerySelection;
  counted: QuerySelection;
}

interface ChartsProps {
  data: InsightsAnswer;
  query: DrillQueries;
  /** Per hour (up to a week) or per day. */
  byHour: boolean;
}

const HEIGHT = 280;
const chartStyle = { width: '100%', height: HEIGHT } as const;
const OUTCOMES = [
  { key: 'delivered', label: 'Delivered', colour: colourOf('DELIVRD') },
  { key: 'failed', label: 'Failed', colour: colourOf('UNDELIV') },
  { key: 'other', label: 'No final report', colour: colourOf('ENROUTE') },
] as const;

const percentTick = (v: number) => `${Math.round(v * 100)} %`;
const statusLabel = (s: string) => statusInfo(s)?.label ?? s;

function useDrill({ query, counted }: DrillQueries) {
  const router = useRouter();
  const href = (d: Drill) => drillHref(d.day || d.hour ? query : counted, d);
  return { href, go: (d: Drill) => router.push(href(d)) };
}

/** The payload row of a clicked bar or slice (Recharts hands it over in `payload`). */
function rowOf<T>(item: unknown): T | undefined {
  return (item as { payload?: T } | undefined)?.payload;
}

export function InsightsCharts({ data, query, byHour }: ChartsProps) {
  return (
    <div className={styles.charts}>
      <VolumeChart data={data} query={query} byHour={byHour} />
      <StatusChart data={data} query={query} />
      <BreakdownChart
        title="By network"
        testId="chart-network"
        query={query}
        rows={data.byNetwork.map((r) => ({ ...r, label: r.network_name || r.network_code, drill: { filters: { network: r.network_code } } }))}
      />
      <BreakdownChart
        title="By sender ID"
        testId="chart-sender"
        query={query}
        rows={data.bySender.map((r) => ({ ...r, label: r.from_address || '(none)', drill: { filters: { oa: r.from_address } } }))}
      />
      <BreakdownChart
        title="By API key"
        testId="chart-api-key"
        query={query}
        rows={data.byApiKey.map((r) => ({ ...r, label: r.api_key_name ? `${r.api_key_name} (${r.api_key})` : r.api_key, drill: { filters: { 'api-key': r.api_key } } }))}
      />
      <DlrChart data={data} query={query} />
      <LatencyChart data={data} query={query} />
      <HistogramChart data={data} query={query} />
      <CostChart data={data} query={query} />
    </div>
  );
}

function VolumeChart({ data, query, byHour }: ChartsProps) {
  const drill = useDrill(query);
  const present = STATUS_ORDER.filter((s) => data.byStatus[s]);
  const rows = (byHour ? data.byHour.map((h) => ({ ...h, label: h.hour.slice(5), key: h.hour })) : data.byDay.map((d) => ({ ...d, label: shortDay(d.day), key: d.day }))).map((r) => ({
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
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v, name) => (name === 'Delivery rate' ? formatRate(Number(v)) : formatCount(Number(v)))} />
          <Legend onClick={(e) => e.dataKey && e.dataKey !== 'rate' && drill.go({ filters: { status: String(e.dataKey) } })} wrapperStyle={{ cursor: 'pointer', fontSize: 12 }} />
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
          <Line yAxisId="rate" dataKey="rate" name="Delivery rate" stroke={RATE_COLOUR} strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />
        </ComposedChart>
      }
      table={
        <table className={styles.table}>
          <caption>Messages per {byHour ? 'hour' : 'day'} ({query.query.tz}) by status</caption>
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
                  <td key={s}>{r.byStatus[s] ? <Link href={drill.href({ ...periodDrill(r.key), filters: { status: s } })}>{formatCount(r.byStatus[s])}</Link> : 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function StatusChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  const rows = STATUS_ORDER.filter((s) => data.byStatus[s]).map((s) => ({ status: s, name: statusLabel(s), value: data.byStatus[s]! }));
  return (
    <ChartPanel
      title="Messages by status"
      description="Click a slice or a legend entry for those messages."
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
          <Tooltip formatter={(v) => formatCount(Number(v))} />
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
          <caption>Messages by status</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Messages</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.status}>
                <th scope="row">
                  <Link href={drill.href({ filters: { status: r.status } })}>
                    {r.name} ({r.status})
                  </Link>
                </th>
                <td>{formatCount(r.value)}</td>
                <td>{formatRate(data.total ? r.value / data.total : null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

interface BreakdownRow extends Outcome {
  label: string;
  drill: Drill;
}

function BreakdownChart({ title, testId, rows, query }: { title: string; testId: string; rows: BreakdownRow[]; query: DrillQueries }) {
  const drill = useDrill(query);
  const shown = rows.slice(0, 12);
  return (
    <ChartPanel
      title={`${title}: volume and delivery rate`}
      description={rows.length > shown.length ? `The ${shown.length} largest of ${rows.length}; the table lists all.` : 'Click a bar for those messages.'}
      testId={testId}
      chart={
        <BarChart data={shown} layout="vertical" responsive style={{ width: '100%', height: Math.max(160, 40 + shown.length * 34) }} margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tick={{ fontSize: 12 }} allowDecimals={false} />
          <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {OUTCOMES.map((o) => (
            <Bar
              key={o.key}
              dataKey={o.key}
              name={o.label}
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
              <th scope="col">{title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase())}</th>
              <th scope="col">Messages</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed</th>
              <th scope="col">No final report</th>
              <th scope="col">Delivery rate</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">
                  <Link href={drill.href(r.drill)}>{r.label}</Link>
                </th>
                <td>{formatCount(r.total)}</td>
                <td>{formatCount(r.delivered)}</td>
                <td>{formatCount(r.failed)}</td>
                <td>{formatCount(r.other)}</td>
                <td>{formatRate(r.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function DlrChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  // The axis says what each code means; the colour whether a resend can help.
  const rows = data.dlrErrors.slice(0, 10).map((e) => ({ ...e, label: `${e.code} · ${e.reason.replace(/\.$/, '').split(':')[0]}` }));
  const kind = (final: boolean | null) => (final === null ? 'unknown code' : final ? 'final: a resend will not help' : 'temporary: worth a resend');
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
          <BarChart data={rows} layout="vertical" responsive style={{ width: '100%', height: Math.max(160, 40 + rows.length * 30) }} margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" tick={{ fontSize: 12 }} allowDecimals={false} />
            <YAxis type="category" dataKey="label" width={260} tick={{ fontSize: 12 }} />
            <Tooltip
              formatter={(v) => formatCount(Number(v))}
              labelFormatter={(label) => {
                const e = rows.find((r) => r.label === label);
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

function LatencyChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  const rows = data.byDay.map((d) => ({ day: d.day, label: shortDay(d.day), p50: d.latencyMs.p50, p90: d.latencyMs.p90, p99: d.latencyMs.p99, count: d.latencyMs.count }));
  return (
    <ChartPanel
      title={`Delivery latency per day: p50 ${formatLatency(data.latencyMs.p50)}, p90 ${formatLatency(data.latencyMs.p90)}, p99 ${formatLatency(data.latencyMs.p99)}`}
      description="Submitted to delivered, nearest-rank percentiles of the delivered messages (log scale)."
      testId="chart-latency"
      chart={
        <LineChart data={rows} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis scale="log" domain={['auto', 'auto']} allowDataOverflow tickFormatter={(v) => formatLatency(Number(v))} tick={{ fontSize: 12 }} width={64} />
          <Tooltip formatter={(v) => formatLatency(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {(['p50', 'p90', 'p99'] as const).map((p, i) => (
            <Line key={p} dataKey={p} name={p} stroke={SERIES_COLOURS[i]} strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />
          ))}
        </LineChart>
      }
      table={
        <table className={styles.table}>
          <caption>Delivery latency per day ({query.query.tz})</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Delivered with a latency</th>
              <th scope="col">p50</th>
              <th scope="col">p90</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day}>
                <th scope="row">
                  <Link href={drill.href({ day: r.day })}>{r.day}</Link>
                </th>
                <td>{formatCount(r.count)}</td>
                <td>{formatLatency(r.p50)}</td>
                <td>{formatLatency(r.p90)}</td>
                <td>{formatLatency(r.p99)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function HistogramChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  // A bucket opens the messages delivered after its lower bound (the filter has no upper bound).
  const drillOf = (fromMs: number): Drill => ({ filters: { 'latency-min': String(Math.floor(fromMs / 1000)) } });
  return (
    <ChartPanel
      title="Delivery latency: how many messages took how long"
      description="Click a bar for the messages delivered after that bucket's lower bound."
      testId="chart-histogram"
      chart={
        <BarChart data={data.latencyHistogram} responsive style={chartStyle} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
          <YAxis tick={{ fontSize: 12 }} allowDecimals={false} />
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Bar
            dataKey="count"
            name="Messages"
            fill={RATE_COLOUR}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(item) => {
              const row = rowOf<{ fromMs: number }>(item);
              if (row) drill.go(drillOf(row.fromMs));
            }}
          />
        </BarChart>
      }
      table={
        <table className={styles.table}>
          <caption>Delivery latency histogram</caption>
          <thead>
            <tr>
              <th scope="col">Latency</th>
              <th scope="col">Messages</th>
            </tr>
          </thead>
          <tbody>
            {data.latencyHistogram.map((b) => (
              <tr key={b.label}>
                <th scope="row">
                  <Link href={drill.href(drillOf(b.fromMs))}>{b.label}</Link>
                </th>
                <td>{formatCount(b.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function CostChart({ data, query }: Omit<ChartsProps, 'byHour'>) {
  const drill = useDrill(query);
  const currencies = data.price.map((p) => p.currency);
  const rows = data.byDay.map((d) => ({
    day: d.day,
    label: shortDay(d.day),
    parts: d.parts,
    ...Object.fromEntries(currencies.map((c) => [c, Number(d.price.find((p) => p.currency === c)?.total ?? 0)])),
  }));
  const totals = data.price.map((p) => `${formatPrice(p.total)} ${p.currency || '(no currency)'}`).join(', ') || 'nothing';
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
          <Tooltip formatter={(v, name) => (name === 'Parts' ? formatCount(Number(v)) : Number(v).toLocaleString('en-US', { maximumFractionDigits: 2 }))} />
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
            <Line key={c} yAxisId="cost" dataKey={c} name={`Cost (${c || 'no currency'})`} stroke={SERIES_COLOURS[(i + 1) % SERIES_COLOURS.length]} strokeWidth={2} dot={false} isAnimationActive={false} />
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
