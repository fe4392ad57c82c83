import 'server-only';
/**
 * The figures every instance reads alike from the store, asked at each scrape: the quota left, the
 * local history's days and lag, the export jobs by state. Shared state, so on several instances
 * each reports the same value (aggregate them with max, not sum). The composition root says where
 * they come from (lib/root/services.ts); a figure the store cannot answer now is left out of that
 * scrape (the rest still answers) and logged.
 */
import client from 'prom-client';
import { log } from '../log';
import { metrics } from './registry';

export interface QuotaFigure {
  window: 'minute' | 'hour' | 'day';
  scope: 'deployment' | 'lowest_account';
  remaining: number;
}

export interface FigureSources {
  quota(): Promise<QuotaFigure[]>;
  /** Days of every account's local history by state (complete, syncing, building, missing). */
  historyDays(): Promise<Record<string, number>>;
  /** The most settled days a turned-on copy still lacks. */
  historyLagDays(): Promise<number>;
  exportJobs(): Promise<Record<string, number>>;
}

/** States always reported, 0 when none: a series that vanishes cannot be alerted on. */
const HISTORY_STATES = ['complete', 'syncing', 'building', 'missing'];
const EXPORT_STATES = ['queued', 'running', 'waiting', 'done', 'failed', 'cancelled'];

const SOURCES_KEY = Symbol.for('sms-dashboard.metrics-figures');
const holder = globalThis as unknown as { [SOURCES_KEY]?: FigureSources };

async function read<T>(name: string, get: (s: FigureSources) => Promise<T>): Promise<T | null> {
  const sources = holder[SOURCES_KEY];
  if (!sources) return null;
  try {
    return await get(sources);
  } catch (err) {
    log.warn('metrics.figure_failed', { figure: name, error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}

function byState(gauge: client.Gauge<'state'>, known: readonly string[], counts: Record<string, number>): void {
  for (const state of new Set([...known, ...Object.keys(counts)])) gauge.set({ state }, counts[state] ?? 0);
}

/** Registers the store's figures with the process's registry (once; later calls replace the sources). */
export function installFigures(sources: FigureSources): void {
  const installed = holder[SOURCES_KEY] !== undefined;
  holder[SOURCES_KEY] = sources;
  if (installed) return;
  const registers = [metrics().registry];
  new client.Gauge({
    name: 'sms_upstream_quota_remaining',
    help: 'Upstream calls left in each window: scope="deployment" for the shared windows (UPSTREAM_IP_LIMIT_PER_*, when set), scope="lowest_account" for the account with the fewest left. From the store.',
    labelNames: ['window', 'scope'],
    registers,
    async collect() {
      this.reset();
      for (const f of (await read('quota', (s) => s.quota())) ?? [])
        this.set({ window: f.window, scope: f.scope }, f.remaining);
    },
  });
  new client.Gauge({
    name: 'sms_history_days',
    help: 'Days of the local history by state, over every account: complete, syncing (pages being read), building (read, going in), missing (settled and wanted, not begun). From the store.',
    labelNames: ['state'],
    registers,
    async collect() {
      this.reset();
      const counts = await read('history_days', (s) => s.historyDays());
      if (counts) byState(this, HISTORY_STATES, counts);
    },
  });
  new client.Gauge({
    name: 'sms_history_lag_days',
    help: 'The most settled days any turned-on copy of the local history still lacks (0: every copy is up to date). From the store.',
    registers,
    async collect() {
      this.reset();
      const lag = await read('history_lag', (s) => s.historyLagDays());
      if (lag !== null) this.set(lag);
    },
  });
  new client.Gauge({
    name: 'sms_export_jobs',
    help: 'Export jobs by state, over every account. From the store.',
    labelNames: ['state'],
    registers,
    async collect() {
      this.reset();
      const counts = await read('export_jobs', (s) => s.exportJobs());
      if (counts) byState(this, EXPORT_STATES, counts);
    },
  });
}
