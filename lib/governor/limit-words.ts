import 'server-only';
/**
 * The words of a refusal (messages/<locale>/problems.json, `quota.*`): whose budget ran out — the
 * account's own, the dashboard's shared one, or the upstream's hold — and when the next call can
 * go. The governor's error says them in English for the log (quota-errors.ts); a client reads them
 * in its own language (problems.ts).
 */
import { msg, type Message } from '../i18n/message';
import type { CallClass } from './classes';
import { isSignIn } from './classes';
import type { LimitedBy } from './decision';

/** Facts behind a refusal (quota-errors.ts's LimitDetail). */
interface Facts {
  limit?: number;
  sharedBy?: number;
  held?: boolean;
  cls?: CallClass;
}

const NONE = 'none';

/**
 * Whose budget ran out, without when the next call can go: a screen that counts the wait down
 * live says that itself (a number written into the sentence would stand still beside it).
 */
export function limitReasonMessage(limitedBy: LimitedBy, scope: 'account' | 'deployment', d: Facts = {}): Message {
  switch (limitedBy) {
    case 'in-flight':
      return msg('problems.quota.reason.inFlight');
    case 'upstream':
      return msg('problems.quota.reason.upstream');
    case 'tokens':
      return d.cls !== undefined && isSignIn(d.cls)
        ? msg('problems.quota.reason.signInTokens')
        : msg('problems.quota.reason.tokens');
    default: {
      const limit = d.limit ?? NONE;
      if (scope === 'account') {
        const background = d.cls === 'export' || d.cls === 'sync' ? 'yes' : 'no';
        return msg('problems.quota.reason.account', { window: limitedBy, limit, background });
      }
      const sharedBy = d.sharedBy ?? NONE;
      if (d.held) return msg('problems.quota.reason.held', { window: limitedBy, sharedBy });
      return msg('problems.quota.reason.shared', { window: limitedBy, limit, sharedBy });
    }
  }
}

/** When the next call can go: in seconds under two minutes, minutes under two hours, then hours and minutes. */
function waitMessage(ms: number): Message {
  if (!Number.isFinite(ms)) return msg('problems.quota.wait.never');
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return msg('problems.quota.wait.seconds', { seconds });
  const minutes = Math.ceil(seconds / 60);
  // The day's window: "in 23 h 59 min", not "in 1439 min".
  if (minutes < 120) return msg('problems.quota.wait.minutes', { minutes });
  return msg('problems.quota.wait.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The reason, and when the next call can go. */
export function limitMessage(
  limitedBy: LimitedBy,
  retryAfterMs: number,
  scope: 'account' | 'deployment',
  d: Facts = {},
): Message {
  const reason = limitReasonMessage(limitedBy, scope, d);
  const wait =
    limitedBy === 'tokens' && d.cls !== undefined && isSignIn(d.cls)
      ? msg('problems.quota.wait.signIn', { seconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) })
      : waitMessage(retryAfterMs);
  return msg('problems.quota.reasonAndWait', { reason, wait });
}
