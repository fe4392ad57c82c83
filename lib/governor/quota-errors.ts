import 'server-only';
/**
 * What the governor answers a call it will not send: QuotaExceededError, saying whose budget ran out
 * (the account's own, the dashboard's shared one, or the upstream's hold) and when the next call can
 * go; and CallNotSentError, which a call's function throws when its turn came but it sent nothing.
 * The words are the catalogues' (limit-words.ts): the error's message is their English, for the
 * log; a client is told them in its own language (problems.ts).
 */
import { brandCheck } from '../errors/brand';
import { translate } from '../i18n/translate';
import type { CallClass } from './classes';
import type { LimitedBy } from './decision';
import { limitMessage, limitReasonMessage } from './limit-words';
import type { Message } from '../i18n/message';

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

  /** The message as Words, said in its reader's language (an export's wait, a page's problem). */
  get words(): Message {
    return limitMessage(this.limitedBy, this.retryAfterMs, this.scope, this.detail);
  }

  /** The message without its wait (limitReason). */
  get reason(): string {
    return limitReason(this.limitedBy, this.scope, this.detail);
  }
}

/** Whose budget ran out, in English (the log's; a screen that counts the wait down says it itself). */
export function limitReason(limitedBy: LimitedBy, scope: LimitScope, d: LimitDetail = {}): string {
  return translate('en', limitReasonMessage(limitedBy, scope, d));
}

/** limitReason, and when the next call can go, in English. */
export function describeLimit(
  limitedBy: LimitedBy,
  retryAfterMs: number,
  scope: LimitScope,
  d: LimitDetail = {},
): string {
  return translate('en', limitMessage(limitedBy, retryAfterMs, scope, d));
}
