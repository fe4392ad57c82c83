/**
 * The upstream's call limits (seed §8). The seed says "Simultaneous calls: 1 per user or IP" and then
 * 3/min, 10/h, 100/day without saying per what; the reading here (the dashboard's too) is: at most
 * N requests in flight per account and per client IP, and the rate windows per account. With
 * `ipRateLimits` the windows also count per client IP, for testing against an upstream that counts
 * that way. A request without a genuine token has no account: only its IP's in-flight limit (and,
 * with ipRateLimits, its IP's windows) applies.
 *
 * Windows slide (the strict reading: a client that bunches requests at a fixed-window boundary is
 * caught). Every query/detail request counts — refused ones included, 429s too — so a client that
 * retries in a tight loop keeps itself locked out. Retry-After is honest about that: it is the time
 * until one more request would be admitted, i.e. until enough of the window's entries (counting the
 * refused request itself) have aged out.
 */

export interface Limits {
  /** Requests in flight at once, per account and per client IP. */
  maxInFlight: number;
  /** Sliding windows, per account (and per IP with ipRateLimits). */
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Also apply perMinute/perHour/perDay per client IP. Default false. */
  ipRateLimits?: boolean;
}

export const DEFAULT_LIMITS: Limits = { maxInFlight: 1, perMinute: 3, perHour: 10, perDay: 100, ipRateLimits: false };

/** Who is calling: the client's address, and the account a genuine token names (null: none). */
export interface Caller {
  ip: string;
  account: string | null;
}

export type LimitName = 'in-flight' | 'per-minute' | 'per-hour' | 'per-day';

export interface Rejection {
  limit: LimitName;
  /** Who hit it: `account demo` or `IP 127.0.0.1`. */
  subject: string;
  retryAfterSeconds: number;
  message: string;
}

export type Admission = { ok: true; release: () => void } | { ok: false; rejection: Rejection };

interface SubjectState {
  inFlight: number;
  /** Arrival times (ms) within the last day, oldest first. */
  times: number[];
}

const MINUTE = 60_000;
const HOUR = 3600_000;
const DAY = 86_400_000;

export class RateLimiter {
  private readonly limits: Limits;
  private readonly now: () => number;
  private readonly subjects = new Map<string, SubjectState>();

  constructor(limits: Limits, now: () => number) {
    this.limits = limits;
    this.now = now;
  }

  /** Counts one request against every limit that applies to the caller and admits it only if none is exceeded. */
  admit(caller: Caller): Admission {
    const now = this.now();
    let worst: Rejection | null = null;
    const consider = (r: Rejection) => {
      if (!worst || r.retryAfterSeconds > worst.retryAfterSeconds) worst = r;
    };
    const subjects: { subject: string; windowed: boolean }[] = [
      { subject: `IP ${caller.ip}`, windowed: this.limits.ipRateLimits === true },
    ];
    if (caller.account !== null) subjects.push({ subject: `account ${caller.account}`, windowed: true });
    const states = subjects.map(({ subject, windowed }) => ({ subject, windowed, st: this.state(subject, now) }));
    for (const { subject, windowed, st } of states) {
      if (st.inFlight >= this.limits.maxInFlight) {
        consider({
          limit: 'in-flight',
          subject,
          retryAfterSeconds: 1,
          message: `too many simultaneous requests: at most ${this.limits.maxInFlight} at a time per ${subject}`,
        });
      }
      if (!windowed) continue;
      const windows: [LimitName, number, number, string][] = [
        ['per-minute', MINUTE, this.limits.perMinute, 'minute'],
        ['per-hour', HOUR, this.limits.perHour, 'hour'],
        ['per-day', DAY, this.limits.perDay, 'day'],
      ];
      for (const [limit, windowMs, max, unit] of windows) {
        const inWindow = st.times.filter((t) => t > now - windowMs && t <= now).sort((a, b) => a - b);
        if (inWindow.length < max) continue;
        // With this request added, the window must shed (length + 1 − max + 1) entries, oldest first.
        const withThis = [...inWindow, now];
        const freeAt = withThis[withThis.length - max]! + windowMs;
        const retryAfterSeconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
        consider({
          limit,
          subject,
          retryAfterSeconds,
          message: `rate limit exceeded: at most ${max} requests per ${unit} per ${subject}; retry in ${retryAfterSeconds} s`,
        });
      }
    }
    for (const { windowed, st } of states) if (windowed) st.times.push(now);
    if (worst) return { ok: false, rejection: worst };
    for (const { st } of states) st.inFlight++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        for (const { st } of states) st.inFlight--;
      },
    };
  }

  /** Forgets every window (requests in flight stay in flight). */
  resetWindows(): void {
    for (const st of this.subjects.values()) st.times = [];
  }

  private state(subject: string, now: number): SubjectState {
    let st = this.subjects.get(subject);
    if (!st) this.subjects.set(subject, (st = { inFlight: 0, times: [] }));
    // Drop what no window can see any more (arrival order is clock order unless a test winds the clock back).
    if (st.times.some((t) => t <= now - DAY)) st.times = st.times.filter((t) => t > now - DAY);
    return st;
  }
}
