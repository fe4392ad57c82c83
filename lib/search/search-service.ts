import 'server-only';
/**
 * Answers the dashboard's searches from the cheapest place that holds the records. The planner
 * (planner.ts) decides where each part of the range is answered — the local history, the page
 * cache or the upstream — as a plan; a page carries the plan out (execute.ts), and GET /api/plan
 * prices the same plan without carrying it out. Every answer says where it came from and what it
 * cost (answer.ts).
 */
import type { QuotaSnapshot } from '../governor';
import type { SearchPlan, TransactionsPage } from './api';
import type { HistoryStore } from '../history/server';
import type { TransactionsQuery } from '../query/query';
import { unlessStoreUnavailable } from '../db/unavailable';
import type { CachePolicy, PageCacheStore } from '../cache/server';
import { UpstreamPages } from '../cache/server';
import type { UpstreamAccount, UpstreamGateway } from '../upstream/server';
import { pagePositions, presentPage } from './answer';
import { execute } from './execute';
import { searchPlanOf, type Plan } from './plan';
import { priceOf, type Planner } from './planner';
import { countCacheAnswer } from '../metrics/server';

export interface TransactionsServiceDeps {
  gateway: Pick<UpstreamGateway, 'query' | 'quota'>;
  cache: PageCacheStore;
  policy: CachePolicy;
  history: HistoryStore;
  /** Decides where each part of a search's range is answered. */
  planner: Planner;
  /** The page size the upstream is read at (its largest). */
  upstreamPageSize: number;
  /** Told of every upstream page stored (complete settled results become local history). */
  onStoredPage?: ConstructorParameters<typeof UpstreamPages>[0]['onStored'];
  now?: () => number;
}

export class TransactionsService {
  private readonly pages: UpstreamPages;
  private readonly now: () => number;

  constructor(private readonly deps: TransactionsServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.pages = new UpstreamPages({
      gateway: deps.gateway,
      cache: deps.cache,
      policy: deps.policy,
      pageSize: deps.upstreamPageSize,
      now: this.now,
      ...(deps.onStoredPage ? { onStored: deps.onStoredPage } : {}),
    });
  }

  /** The plan of a search: what the page and its price both start from. */
  private planOf(account: UpstreamAccount, query: TransactionsQuery): Promise<Plan> {
    return this.deps.planner.plan(account, query, { from: query.from.getTime(), to: query.to.getTime() });
  }

  async page(account: UpstreamAccount, query: TransactionsQuery, signal?: AbortSignal): Promise<TransactionsPage> {
    const { start, end } = pagePositions(query.page, query.pageSize);
    const plan = await this.planOf(account, query);
    const answer = await execute(
      { pages: this.pages, history: this.deps.history, upstreamPageSize: this.deps.upstreamPageSize },
      plan,
      account,
      query,
      start,
      end,
      signal,
    );
    countCacheAnswer(answer.source, answer.calls);
    // Left out while the store cannot be read for it: the page itself may be paid for already.
    const quota = await unlessStoreUnavailable(this.quota(account), undefined);
    return presentPage(answer, query, { quota, policy: this.deps.policy, now: this.now() });
  }

  /** What the search will cost, without making it (GET /api/plan). */
  async plan(account: UpstreamAccount, query: TransactionsQuery): Promise<SearchPlan> {
    const { start, end } = pagePositions(query.page, query.pageSize);
    const plan = await this.planOf(account, query);
    const quota = await this.quota(account);
    const cost = await priceOf(
      { history: this.deps.history, cached: this.pages.cached, upstreamPageSize: this.deps.upstreamPageSize },
      plan,
      account,
      query,
      start,
      end,
    );
    return searchPlanOf(plan, cost, quota, query.tz, this.now());
  }

  quota(account: UpstreamAccount): Promise<QuotaSnapshot> {
    return this.deps.gateway.quota(account.apiKey);
  }
}
