import 'server-only';
/**
 * Carries a plan out for one page: each kind of plan to its executor — the local history
 * (local-answer.ts), the upstream's pages behind the cache (lib/cache/upstream-pages.ts, which asks
 * lib/cache/cached-pages.ts first), or the composed page of both (composed-page.ts) — and says
 * where the answer came from.
 */
import type { UpstreamPages } from '../cache/server';
import type { HistoryStore } from '../history/server';
import type { TransactionsQuery } from '../query/query';
import { reachableRecords } from '../query/ranges';
import { upstreamBase } from '../query/wire';
import type { UpstreamAccount } from '../upstream/server';
import type { Answer } from './answer';
import { composedSlice } from './composed-page';
import { localOnlyAnswer } from './local-answer';
import type { Plan } from './plan';

export interface ExecuteDeps {
  pages: Pick<UpstreamPages, 'slice' | 'cached'>;
  history: Pick<HistoryStore, 'slice'>;
  upstreamPageSize: number;
}

/** Positions [start, end) of `query`, read as `plan` says. */
export async function execute(
  deps: ExecuteDeps,
  plan: Plan,
  account: UpstreamAccount,
  query: TransactionsQuery,
  start: number,
  end: number,
  signal?: AbortSignal,
): Promise<Answer> {
  switch (plan.kind) {
    case 'local-only':
      return localOnlyAnswer(deps.history, plan, query, start, end);
    case 'upstream': {
      const base = upstreamBase(query, { enterpriseId: account.enterpriseId, pageSize: deps.upstreamPageSize });
      const slice = await deps.pages.slice(
        account,
        base,
        query.to.getTime(),
        query.sortOrder,
        start,
        end,
        'interactive',
        signal,
      );
      // Read from the upstream for this answer (a call shared with an identical request included);
      // a stale stand-in came from the cache, though the call that failed was spent.
      return {
        ...slice,
        source: slice.fresh ? 'upstream' : 'cache',
        reachable: reachableRecords(deps.upstreamPageSize),
      };
    }
    case 'local':
    case 'composed': {
      const composed = await composedSlice(deps, account, plan, query, start, end, signal);
      return {
        ...composed,
        source:
          composed.usedLocal && composed.usedUpstream
            ? 'mixed'
            : composed.usedLocal
              ? 'history'
              : composed.fresh
                ? 'upstream'
                : 'cache',
      };
    }
  }
}
