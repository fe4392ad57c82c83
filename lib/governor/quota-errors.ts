/**
 * What the governor answers a call it will not send: QuotaExceededError, saying whose budget ran out
 * (the account's own, the dashboard's shared one, or the upstream's hold) and when the next call can
 * go; and CallNotSentError, which a call's function throws when its turn came but it sent nothing.
 */
import { brandCheck } from '../errors/brand';
import type { WindowName } from './api';
import { isSignIn, type CallClass } from './classes';
import type { LimitedBy } from './decision';

const QUOTAEXCEEDEDERROR_BRAND = brandCheck('QuotaExceededError');
const CALLNOTSENTERROR_BRAND = brandCheck('CallNotSentError');

/**
 * Thrown by a call's function when its turn came but it sent nothing (the token it held ran out
 * while it waited): the call is taken back out of the ledger, so it counts against no window and
 * the quota meter shows only what the upstream saw. Thrown once anything may have gone out, it
 * would undercount: only for a call that certainly did not.
 */
export class CallNotSentError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return CALLNOTSENTERROR_BRAND.hasInstance(value);
  }
  readonly [CALLNOTSENTERROR_BRAND.brand] = true;

  constructor(message: string) {
    super(message);
    this.name = 'CallNotSentError';
  }
}

export type LimitScope = 'account' | 'deployment';

/** Facts behind a refusal, for the message and the problem details. */
export interface LimitDetail {
  limit?: number;
  sharedBy?: number;
  held?: boolean;
  cls?: CallClass;
}

export class QuotaExceededError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return QUOTAEXCEEDEDERROR_BRAND.hasInstance(value);
  }
  readonly [QUOTAEXCEEDEDERROR_BRAND.brand] = true;

  constructor(
    readonly limitedBy: LimitedBy,
    readonly nextCallAt: number,
    readonly retryAfterMs: number,
    readonly scope: LimitScope = 'account',
    readonly detail: LimitDetail = {},
  ) {
    super(describeLimit(limitedBy, retryAfterMs, scope, detail));
    this.name = 'QuotaExceededError';
  }

  /** The message without its wait (limitReason). */
  get reason(): string {
    return limitReason(this.limitedBy, this.scope, this.detail);
  }
}

function wait(ms: number): string {
  if (!Number.isFinite(ms)) return 'no call can go at the configured limits';
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `the next call can go in ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  // The day's window: "in 23 h 59 min", not "in 1439 min".
  return minutes < 120
    ? `the next call can go in ${minutes} min`
    : `the next call can go in ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const per = (name: WindowName) => (name === 'hour' ? 'an hour' : `a ${name}`);

/**
 * Whose budget ran out — the account's own, the dashboard's shared one, or the upstream's hold —
 * without when the next call can go: a screen that counts the wait down live says that itself
 * (a number written into the sentence would stand still beside it).
 */
export function limitReason(limitedBy: LimitedBy, scope: LimitScope, d: LimitDetail = {}): string {
  switch (limitedBy) {
    case 'in-flight':
      return 'Another upstream call is still running (the Report API takes one at a time)';
    case 'upstream':
      return "The Report API asked us to wait before this account's next call";
    case 'tokens':
      return d.cls !== undefined && isSignIn(d.cls)
        ? 'Too many sign-ins are being checked with the Report API right now'
        : "This dashboard's token requests for this minute are used";
    default: {
      if (scope === 'account') {
        const limit = d.limit !== undefined ? `${d.limit} ` : '';
        return `Your account's ${limit}calls this ${limitedBy} are used${d.cls === 'export' || d.cls === 'sync' ? ' (background work leaves some to searches)' : ''}`;
      }
      const users =
        d.sharedBy !== undefined ? ` (${d.sharedBy} ${d.sharedBy === 1 ? 'account' : 'accounts'} used them)` : '';
      if (d.held)
        return `Your account has used its share of this dashboard's calls this ${limitedBy}: the rest is kept for accounts that have not called yet${users}`;
      return `This dashboard's shared calls this ${limitedBy}${d.limit !== undefined ? ` (${d.limit} ${per(limitedBy)} for every account together)` : ''} are used${users}`;
    }
  }
}

/** limitReason, and when the next call can go. */
export function describeLimit(
  limitedBy: LimitedBy,
  retryAfterMs: number,
  scope: LimitScope,
  d: LimitDetail = {},
): string {
  const reason = limitReason(limitedBy, scope, d);
  if (limitedBy === 'tokens' && d.cls !== undefined && isSignIn(d.cls))
    return `${reason}; try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
  return `${reason}; ${wait(retryAfterMs)}.`;
}
