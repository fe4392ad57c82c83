/**
 * Puts many distinct cached pages into a data folder's store before the dashboard starts on it,
 * through the store's own API (lib/store), so a benchmark can ask for 100,000 pages without
 * spending 100,000 upstream calls. Each page answers its own query (a one-hour range starting a
 * minute after the previous one's), keyed exactly as the dashboard keys it (lib/query/wire.ts).
 *
 * Runs under `tsx --conditions=react-server` (the store's modules are server-only).
 */
import type { Cdr, ResultPage } from '../../lib/cdr/schema';
import { upstreamBase } from '../../lib/query/wire';
import { openStore } from '../../lib/root/open-store';
import { formatWallClock } from '../../lib/time/zones';

export interface SeedPlan {
  dataDir: string;
  /** The API key the pages belong to (the account signed in with no enterprise id). */
  account: string;
  /** Records to draw the pages' records from (a real upstream page). */
  records: readonly Cdr[];
  /** Pages, and how many records each holds. */
  pages: number;
  recordsOf: (index: number) => number;
  /** The start of the first range; every range must have ended long enough ago to be settled. */
  firstFrom: number;
  pageSize: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

function rangeOf(plan: Pick<SeedPlan, 'firstFrom'>, index: number): { from: Date; to: Date } {
  const from = plan.firstFrom + index * MINUTE;
  return { from: new Date(from), to: new Date(from + HOUR) };
}

/** The dashboard's URL of seeded page `index`. */
export function seededPath(plan: Pick<SeedPlan, 'firstFrom'>, index: number): string {
  const { from, to } = rangeOf(plan, index);
  const params = new URLSearchParams({
    'date-from': formatWallClock(from, 'UTC'),
    'date-to': formatWallClock(to, 'UTC'),
    tz: 'UTC',
    'page-size': '100',
    page: '1',
  });
  return `/api/transactions?${params}`;
}

export async function seedPages(plan: SeedPlan): Promise<void> {
  const store = await openStore({ dataDir: plan.dataDir, DATABASE_URL: undefined });
  try {
    const now = Date.now();
    for (let i = 0; i < plan.pages; i++) {
      const { from, to } = rangeOf(plan, i);
      const base = upstreamBase({ from, to, filters: {} }, { enterpriseId: null, pageSize: plan.pageSize });
      const count = plan.recordsOf(i);
      const cdrs = Array.from({ length: count }, (_, k) => plan.records[(i + k) % plan.records.length] as Cdr);
      const body: ResultPage = {
        page_size: plan.pageSize,
        page: 1,
        _links: {},
        _embedded: { total_found: count, cdrs },
      };
      await store.cache.putPage(plan.account, {
        queryKey: base.key,
        sortOrder: 'desc',
        page: 1,
        totalFound: count,
        body,
        fetchedAt: now,
        expiresAt: now + 30 * 24 * HOUR,
      });
    }
  } finally {
    await store.close();
  }
}
