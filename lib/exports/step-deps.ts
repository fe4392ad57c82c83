import 'server-only';
/**
 * What a step of an export job needs, and what it tells the runner to do next. A step is one of:
 * reading a window locally (step-local.ts), reading an upstream page (step-upstream.ts), storing
 * what was read (store-page.ts, keep-upstream-page.ts), and advancing to the next window or the
 * file (job-step.ts).
 */
import type { Config } from '../config';
import type { SortOrder } from '../query/query';
import type { UpstreamBase } from '../query/wire';
import type { CachePolicy, PageCacheStore } from '../cache/server';
import type { UpstreamGateway } from '../upstream/server';
import type { VaultEntry, VaultStore } from '../auth/server';
import type { PageSizes } from '../history/server';
import type { FinishDeps } from './finish-job';
import type { LocalReadDeps } from './local-windows';

export interface StepDeps extends FinishDeps {
  cache: PageCacheStore;
  /** The local history: what it holds completely is read from it, with no call. */
  local: LocalReadDeps;
  /** Told after a page was shared with the dashboard's cache (a complete result may go to the local history). */
  onSharedPage(
    account: { apiKey: string; enterpriseId: string | null },
    base: UpstreamBase,
    sortOrder: SortOrder,
    totalFound: number,
  ): void;
  /** The sessions whose secrets renew the upstream token. */
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'query' | 'nextCallAt' | 'limits'>;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS'>;
  policy: CachePolicy;
  /** Opens a vault entry's sealed secret; null when it cannot be opened. */
  secretOf(entry: VaultEntry): string | null;
  /** The page size background reads ask for: a refusal of a job's size falls back (lib/history/sync-page-size.ts). */
  pageSizes?: Pick<PageSizes, 'refused'>;
}

/** What the runner does next with the job. */
export type StepOutcome = { next: 'continue' } | { next: 'wait'; until: number | null } | { next: 'stop' };
