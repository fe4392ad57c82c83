import 'server-only';
/**
 * Looks one transaction up by its trx_id, from the cheapest place that holds it: the local history,
 * then any cached page or record of the account, else one detail call to the upstream. A record
 * in a final state no longer changes, so its cached copy serves however old; one in transit is
 * read again once its page has expired. An id the upstream does not know is remembered for a few
 * minutes, so asking again spends no call.
 */
import type { Cdr } from '../cdr/schema';
import { presentCdr } from '../search/server';
import { statusInfo } from '../cdr/status';
import { scopeOf } from '../history';
import type { HistoryStore } from '../history/server';
import { canStandIn, staleReason, type CachePolicy, type PageCacheStore } from '../cache/server';
import { notFound } from '../http/problem';
import { log } from '../log';
import { parseUpstreamTimestamp, type Zone } from '../time/zones';
import { callsSpentBy, UpstreamError, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';
import type { TransactionMeta } from './api';
import { notVisibleRecentlyText, notVisibleText } from './words';
import { countCacheAnswer } from '../metrics/server';

/** How long an id the upstream did not know is answered "not found" without asking again. */
const NOT_FOUND_TTL_MS = 5 * 60_000;
/** Unknown ids remembered at most (a script could ask for millions). */
const MAX_UNKNOWN = 10_000;

export interface LookupServiceDeps {
  gateway: Pick<UpstreamGateway, 'detail'>;
  cache: Pick<PageCacheStore, 'getRecord' | 'putRecords'>;
  policy: Pick<CachePolicy, 'expiresAt'>;
  history: Pick<HistoryStore, 'record'>;
  now?: () => number;
}

export class LookupService {
  /** Unknown trx_ids recently asked for, so asking again does not spend another call. */
  private readonly unknownTrx = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly deps: LookupServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The transaction `trxId` (as the records write it) presented in `tz`, and where it was found. */
  async lookUp(
    account: UpstreamAccount,
    trxId: string,
    tz: Zone,
    signal?: AbortSignal,
  ): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const found = await this.find(account, trxId, tz, signal);
    countCacheAnswer(found.meta.source, found.meta.calls);
    return found;
  }

  private async find(
    account: UpstreamAccount,
    trxId: string,
    tz: Zone,
    signal?: AbortSignal,
  ): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const id = trxId.toLowerCase();
    const now = this.now();
    const scope = scopeOf(account).key;
    const kept = await this.deps.history.record(scope, id);
    if (kept) return { cdr: presentCdr(JSON.parse(kept) as Cdr, tz), meta: metaOf('history', 0, now, now) };
    // The cache is the API key's; a session signed in for one enterprise is not shown another's
    // record (a key of several enterprises, whose detail call is narrowed to the session's).
    const found = await this.deps.cache.getRecord(account.apiKey, id);
    const cached =
      found && (account.enterpriseId === null || found.cdr.enterprise_id === account.enterpriseId) ? found : null;
    // A record in a final state no longer changes; one in transit is re-read once its page expired.
    if (cached && (cached.expiresAt > now || statusInfo(cached.cdr.delivery_status)?.final)) {
      return { cdr: presentCdr(cached.cdr, tz), meta: metaOf('cache', 0, cached.fetchedAt, now) };
    }
    const unknownKey = `${scope}\u0000${id}`;
    if ((this.unknownTrx.get(unknownKey) ?? 0) > now) throw notFound(notVisibleRecentlyText(id));
    let cdr: Cdr;
    let calls: number;
    try {
      ({ cdr, calls } = await this.deps.gateway.detail(account, id, signal));
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'not_found') {
        this.forgetOldUnknowns(now);
        this.unknownTrx.set(unknownKey, now + NOT_FOUND_TTL_MS);
        throw notFound(notVisibleText(id));
      }
      if (cached && canStandIn(err)) {
        return {
          cdr: presentCdr(cached.cdr, tz),
          meta: { ...metaOf('cache', callsSpentBy(err), cached.fetchedAt, now), stale: staleReason(err) },
        };
      }
      throw err;
    }
    const fetchedAt = this.now();
    const received = parseUpstreamTimestamp(cdr.date_received)?.getTime() ?? fetchedAt;
    // Paid for: the answer whether or not it can be kept (a store restarting costs the next lookup a call, not this one).
    await this.deps.cache
      .putRecords(account.apiKey, [cdr], fetchedAt, this.deps.policy.expiresAt(received, fetchedAt))
      .catch((err: unknown) => {
        log.warn('cache.record_not_kept', {
          account: account.apiKey,
          error: err instanceof Error ? err.message : String(err),
        });
      });
    return { cdr: presentCdr(cdr, tz), meta: metaOf('upstream', calls, fetchedAt, fetchedAt) };
  }

  /** The memory of unknown ids must not grow without bound. */
  private forgetOldUnknowns(now: number): void {
    if (this.unknownTrx.size < MAX_UNKNOWN) return;
    for (const [key, until] of this.unknownTrx) if (until <= now) this.unknownTrx.delete(key);
    if (this.unknownTrx.size >= MAX_UNKNOWN) this.unknownTrx.clear();
  }
}

function metaOf(source: TransactionMeta['source'], calls: number, fetchedAt: number, now: number): TransactionMeta {
  return {
    source,
    calls,
    fetchedAt: new Date(fetchedAt).toISOString(),
    ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
  };
}
