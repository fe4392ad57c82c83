import 'server-only';
/**
 * The process's Prometheus metrics (prom-client): one registry per process, holding what this
 * instance counted (upstream calls, governor waits, cache answers, request durations) and Node's
 * own process metrics; the figures every instance reads alike from the store join it at start
 * (./figures.ts).
 *
 * One registry for the process, on `globalThis`: Next.js bundles each route and the startup hook
 * apart, and a counter made by one bundle's copy of this module must be the one every other bundle
 * adds to and /api/metrics reads.
 */
import client, { type Counter, type Histogram, type Registry } from 'prom-client';

export interface DashboardMetrics {
  registry: Registry;
  upstreamCalls: Counter<'class' | 'outcome'>;
  governorWait: Histogram<'class'>;
  cacheRequests: Counter<'result'>;
  httpDuration: Histogram<'route' | 'status'>;
}

/** A call waits from nothing (a free slot) to an hour (a day's window); a person at most 20 s. */
const WAIT_BUCKETS = [0.005, 0.05, 0.25, 1, 5, 20, 60, 300, 1200, 3600];
/** A cached page answers in a few ms, an upstream call within its 20 s timeout, an export's file in minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function create(): DashboardMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    upstreamCalls: new client.Counter({
      name: 'sms_upstream_calls_total',
      help: 'Calls sent to the upstream Report API by this instance, by governor class and outcome (2xx, 3xx, 4xx, 429, 5xx, timeout, network, aborted).',
      labelNames: ['class', 'outcome'],
      registers,
    }),
    governorWait: new client.Histogram({
      name: 'sms_governor_wait_seconds',
      help: 'How long a call waited in the governor for its turn (limits, the in-flight slot, the queue) before it was sent.',
      labelNames: ['class'],
      buckets: WAIT_BUCKETS,
      registers,
    }),
    cacheRequests: new client.Counter({
      name: 'sms_cache_requests_total',
      help: 'Pages and records asked of this instance, by where the answer came from: hit (cached pages), miss (an upstream read), local (the local history).',
      labelNames: ['result'],
      registers,
    }),
    httpDuration: new client.Histogram({
      name: 'sms_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its answer’s end, by route pattern and status.',
      labelNames: ['route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
  };
}

const METRICS_KEY = Symbol.for('sms-dashboard.metrics');
const holder = globalThis as unknown as { [METRICS_KEY]?: DashboardMetrics };

/** The process's metrics, made on first use. */
export function metrics(): DashboardMetrics {
  return (holder[METRICS_KEY] ??= create());
}
