import 'server-only';
/**
 * What GET/PUT/DELETE /api/history do for an account: say how its local history stands (day by
 * day, what it costs, when it will be complete), change what is wanted (on/off, the start day, going
 * on while signed out), and forget the copy. The state is worked out from what is stored — the
 * settings, the days, the sessions, the governor's windows — so every instance answers alike.
 */
import type { HistoryDay, HistorySettingsInput, HistoryState } from './api';
import type { Config } from '../config';
import type { CachePolicy } from '../cache/server';
import type { UpstreamGateway } from '../upstream/server';
import type { HistoryStore } from './store/history-store';
import type { VaultStore } from '../auth/server';
import type { Locale } from '../i18n/locales';
import { msg, type Words } from '../i18n/message';
import { translate } from '../i18n/translate';
import type { PageCacheStore } from '../cache/server';
import type { DayProgress } from './sync-day-progress';
import { callsStillNeeded, typicalDayCalls } from './calls-needed';
import { addDays, dayOf, daysBetween, lastSettledDay, startOf } from './days';
import type { HistoryIndex } from './history-index';
import { firstKeptDay, sinceBounds } from './retention';
import { scopeOf } from './scope';
import type { SyncRunner } from './sync-runner';
import { keepsUpWith, type PageSizes } from './sync-page-size';
import { backgroundRate } from '../governor/server';
import { problemRetryAt, wantedDays } from './sync-step';

export interface HistoryAccount {
  apiKey: string;
  enterpriseId: string | null;
  sid: string;
}

export interface HistoryServiceDeps {
  history: HistoryStore;
  index: HistoryIndex;
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'nextCallAt' | 'planCalls' | 'callsMade' | 'limits'>;
  /** The page size the copy reads with (./sync-page-size.ts). */
  pageSizes: Pick<PageSizes, 'state'>;
  runner: Pick<SyncRunner, 'kick' | 'cancel' | 'forget'>;
  /** The page cache: deleting the local history forgets the key's cached pages and records too. */
  cache: Pick<PageCacheStore, 'forget'>;
  policy: CachePolicy;
  config: Pick<Config, 'HISTORY_MAX_DAYS' | 'HISTORY_DEFAULT_DAYS' | 'DEFAULT_LOCALE'>;
  now: () => number;
}

/** How long one call is assumed to take, for when the copy will be complete. */
const ASSUMED_CALL_MS = 1_500;

export class HistoryService {
  /** Changes of a copy's settings under way, by scope: one after another (two tabs read-modify-write the same row). */
  private readonly changing = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: HistoryServiceDeps) {}

  /** Runs `work` once the scope's changes asked before it are done. */
  private inTurn<T>(scope: string, work: () => Promise<T>): Promise<T> {
    const run = (this.changing.get(scope) ?? Promise.resolve()).then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.changing.set(scope, tail);
    void tail.then(() => {
      if (this.changing.get(scope) === tail) this.changing.delete(scope);
    });
    return run;
  }

  private defaultSince(now: number): string {
    return addDays(dayOf(now), -this.deps.config.HISTORY_DEFAULT_DAYS);
  }

  /**
   * How the account's local history stands, its message said in `locale` (the reader's: the route
   * passes the request's; the deployment's DEFAULT_LOCALE otherwise).
   */
  async get(account: HistoryAccount, locale: Locale = this.deps.config.DEFAULT_LOCALE): Promise<HistoryState> {
    const { history, gateway, vault, policy, config } = this.deps;
    const now = this.deps.now();
    const scope = scopeOf(account).key;
    const settings = await history.getSettings(scope);
    const since = settings?.sinceDay ?? this.defaultSince(now);
    const enabled = settings?.enabled ?? false;
    const settledBefore = policy.settledBefore(now);
    const lastSettled = lastSettledDay(settledBefore);
    const { first } = wantedDays({ sinceDay: since }, config.HISTORY_MAX_DAYS, settledBefore, now);
    const stored = new Map((await history.listDays<DayProgress>(scope)).map((d) => [d.day, d]));
    const today = dayOf(now);
    const wanted = first <= lastSettled ? daysBetween(first, lastSettled) : [];
    const missing = wanted.filter((d) => stored.get(d)?.state !== 'complete');
    // The problem that turned the copy off, while that is the last change of its settings (both
    // written at one instant: lib/history/sync-step.ts); a person's Start or Pause since is theirs.
    const stoppedBy =
      [...stored.values()].find((d) => d.progress.stoppedCopy && d.updatedAt === settings?.updatedAt)?.progress
        .problem ?? null;

    // Why it does not copy right now, if it does not.
    let state: HistoryState['state'] = 'off';
    let message: Words | null = null;
    if (!enabled) {
      // Stopped once some of it was made (a day copied, or part of one), or by a problem: paused,
      // and Start goes on from there. Off: nothing begun. Days resting meanwhile are not why.
      const begun = [...stored.values()].some((d) => d.state === 'complete' || d.records > 0);
      state = stoppedBy || begun ? 'paused' : 'off';
      message = stoppedBy;
    } else if (missing.length === 0) {
      state = 'complete';
      // Spans rather than clock times: the History page shows either zone, and asks again every few seconds.
      message = msg('history.server.complete', {
        first,
        wait: { seconds: (startOf(addDays(lastSettled, 2)) - settledBefore) / 1000 },
      });
    } else if (!(await vault.liveSession(account.apiKey, now)) && !(settings?.keepSignedOut && settings.sealedSecret)) {
      state = 'waiting';
      message = msg('history.server.signIn', { apiKey: account.apiKey });
    } else {
      // Days with a problem rest a while (the copy goes on with the others): said, with when.
      const resting = missing.flatMap((d) => {
        const row = stored.get(d);
        return row?.progress.problem && now < problemRetryAt(row) ? [row] : [];
      });
      const rest = resting[resting.length - 1];
      const restNote =
        rest && rest.progress.problem
          ? msg('history.server.rest', {
              day: rest.day,
              problem: rest.progress.problem,
              wait: { seconds: (problemRetryAt(rest) - now) / 1000 },
              more: resting.length - 1,
            })
          : null;
      const next = await gateway.nextCallAt(account.apiKey, 'sync');
      if (resting.length === missing.length) {
        state = 'waiting';
        message = restNote;
      } else if (next.at > now + 1_000) {
        state = 'waiting';
        message = Number.isFinite(next.at)
          ? msg('history.server.quota', {
              wait: { seconds: (next.at - now) / 1000 },
              share: Math.round(gateway.limits.syncShare * 100),
            })
          : msg('history.server.noShare');
      } else state = 'syncing';
      if (restNote && message !== restNote)
        message = message ? msg('history.server.joined', { first: message, second: restNote }) : restNote;
    }

    const active = enabled ? missing[missing.length - 1] : undefined; // the copy goes newest first
    // From the first day the copy may hold: days before it (older than HISTORY_MAX_DAYS) are gone.
    const days: HistoryDay[] = (first <= today ? daysBetween(first, today) : []).reverse().map((day) => {
      const d = stored.get(day);
      const base = { day, records: d?.records ?? 0 };
      if (d?.state === 'complete') return { ...base, state: 'complete' };
      if (day > lastSettled) return { ...base, state: 'unsettled' };
      if (day < first) return { ...base, state: 'pending' };
      // A day resting after a problem waits, whatever the copy does meanwhile.
      if (enabled && d?.progress.problem && now < problemRetryAt(d)) return { ...base, state: 'waiting' };
      if (enabled && (d || day === active)) return { ...base, state: state === 'waiting' ? 'waiting' : 'syncing' };
      return { ...base, state: 'pending' };
    });

    const pageSize = await this.deps.pageSizes.state();
    const callsPerDay = typicalDayCalls([...stored.values()], pageSize.size);
    const remaining = callsStillNeeded(missing, stored, callsPerDay);
    const plan =
      enabled && remaining !== null && remaining > 0
        ? await gateway.planCalls(account.apiKey, 'sync', remaining, 0, ASSUMED_CALL_MS)
        : null;
    // A day resting after a problem is read again only when its rest is over: the copy cannot be
    // complete before (the plan of calls alone said "in a minute" for hours).
    const restsUntil = Math.max(
      0,
      ...missing
        .map((day) => stored.get(day))
        .flatMap((d) => (d?.progress.problem && now < problemRetryAt(d) ? [problemRetryAt(d)] : [])),
    );
    const finishAt = plan?.finishAt ? Math.max(plan.finishAt, restsUntil) : null;
    return {
      enabled,
      state,
      message: message === null ? null : translate(locale, message),
      since,
      keepSyncingSignedOut: settings?.keepSignedOut ?? false,
      maxDays: config.HISTORY_MAX_DAYS,
      sinceBounds: sinceBounds(now, config.HISTORY_MAX_DAYS),
      records: (await history.size(scope)).records,
      callsToday: await gateway.callsMade(account.apiKey, 'sync', startOf(today)),
      callsLeft: remaining,
      callsPerDay,
      recordsPerCall: pageSize.size,
      pageSize: {
        size: pageSize.size,
        source: pageSize.source,
        decidedAt: pageSize.decidedAt === null ? null : new Date(pageSize.decidedAt).toISOString(),
        refused: pageSize.refused,
      },
      keepsUpWith: keepsUpWith(backgroundRate(gateway.limits, 'sync'), pageSize.size),
      completeAt: finishAt
        ? new Date(finishAt).toISOString()
        : missing.length === 0 && enabled
          ? new Date(now).toISOString()
          : null,
      days,
    };
  }

  /** Changes what is wanted (a change its route has checked: ./settings-request.ts); answers the new state. */
  async put(
    account: HistoryAccount,
    change: HistorySettingsInput,
    locale: Locale = this.deps.config.DEFAULT_LOCALE,
  ): Promise<HistoryState> {
    const scope = scopeOf(account).key;
    return this.inTurn(scope, () => this.apply(account, scope, change, this.deps.now(), locale));
  }

  /** Writes a checked change of the settings over what is stored now; answers the new state. */
  private async apply(
    account: HistoryAccount,
    scope: string,
    input: HistorySettingsInput,
    now: number,
    locale: Locale,
  ): Promise<HistoryState> {
    const { history, vault } = this.deps;
    const current = await history.getSettings(scope);
    const keepSignedOut = input.keepSyncingSignedOut ?? current?.keepSignedOut ?? false;
    const sealedSecret = keepSignedOut
      ? (current?.sealedSecret ?? (await vault.get(account.sid, now))?.sealedSecret ?? null)
      : null;
    const since = input.since ?? current?.sinceDay ?? this.defaultSince(now);
    // Turning the copy on is asked for in words: a change of the start day alone does not start it.
    const enabled = input.enabled ?? current?.enabled ?? false;
    await history.putSettings({
      scope,
      apiKey: account.apiKey,
      enterpriseId: account.enterpriseId,
      enabled,
      sinceDay: since,
      keepSignedOut,
      sealedSecret,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    });
    // A later start day gives up the days before it at once.
    if (current && since > current.sinceDay) await history.deleteBefore(scope, since);
    this.deps.index.invalidate(scope);
    if (enabled) this.deps.runner.kick(scope);
    else this.deps.runner.cancel(scope);
    return this.get(account, locale);
  }

  /**
   * Deletes the secrets kept for copying while signed out of every copy of the API key (each of its
   * enterprises), and turns that option off: "sign out everywhere" leaves nothing that can call the
   * upstream as the key. Each copy then waits for the next sign-in. How many copies kept one.
   */
  async forgetKeptSecrets(apiKey: string): Promise<number> {
    const kept = (await this.deps.history.allSettings()).filter(
      (s) => s.apiKey === apiKey && (s.keepSignedOut || s.sealedSecret !== null),
    );
    await Promise.all(
      kept.map((s) =>
        this.inTurn(s.scope, async () => {
          const current = await this.deps.history.getSettings(s.scope);
          if (!current) return;
          await this.deps.history.putSettings({
            ...current,
            keepSignedOut: false,
            sealedSecret: null,
            updatedAt: this.deps.now(),
          });
          this.deps.runner.kick(s.scope);
        }),
      ),
    );
    return kept.length;
  }

  /**
   * Forgets the copy — records, days, results and settings — and the API key's cached pages and
   * records (the cache is the key's: for a key of several enterprises, all of theirs): a person who
   * deletes their local history expects no number or text of theirs left on disk.
   */
  async delete(account: HistoryAccount): Promise<void> {
    const scope = scopeOf(account).key;
    await this.deps.cache.forget(account.apiKey);
    await this.inTurn(scope, () => this.forget(scope));
  }

  private async forget(scope: string): Promise<void> {
    // Off first, so no new step starts here or on another instance (a step that ends now would
    // otherwise wake the runner, which would start another); then nothing of it may still be writing.
    const current = await this.deps.history.getSettings(scope);
    if (current?.enabled)
      await this.deps.history.putSettings({ ...current, enabled: false, updatedAt: this.deps.now() });
    await this.deps.runner.forget(scope);
    await this.deps.history.deleteScope(scope);
    this.deps.index.invalidate(scope);
  }

  /**
   * Keeps every copy within its start day and HISTORY_MAX_DAYS, and the complete results of an
   * account whose copy is off within the cache's retention (store maintenance, hourly).
   */
  async enforceRetention(): Promise<void> {
    const now = this.deps.now();
    const settingsOf = new Map((await this.deps.history.allSettings()).map((s) => [s.scope, s]));
    for (const settings of settingsOf.values()) {
      const cut = firstKeptDay(settings.sinceDay, now, this.deps.config.HISTORY_MAX_DAYS);
      await this.deps.history.deleteBefore(settings.scope, cut);
      this.deps.index.invalidate(settings.scope);
    }
    // Complete results are copied with the copy on or off. With it off (never turned on, or
    // turned off before a day was copied) they are what the page cache holds, kept as local
    // history, and kept no longer than the cache keeps their pages: once the oldest is past that,
    // the scope's results go, with every record (nothing else is held). Results of a copy that
    // holds days follow the copy's own retention above.
    for (const held of await this.deps.history.resultScopes()) {
      const settings = settingsOf.get(held.scope);
      if (held.days > 0 || settings?.enabled) continue;
      if (this.deps.policy.expiresAt(held.oldestTo, held.oldestCreatedAt) > now) continue;
      await this.deps.history.forgetResults(held.scope);
      this.deps.index.invalidate(held.scope);
    }
  }
}
