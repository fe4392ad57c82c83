/**
 * When an export's upstream calls can go, worked out with the governor's own sliding-window
 * arithmetic (lib/governor/windows.ts) at background priority: the minute limit as is, the hour and
 * day limits minus the calls kept for people — for the account (its calls in the ledger) and for
 * the deployment as a whole (every account's calls: the upstream also counts per client IP). Pure,
 * so it is tested without a clock; the answer is "at best", as people's own searches take from the
 * same windows.
 */
import { earliestCall, windowLimits, type WindowLimit } from '../governor/windows';

export interface Limits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

/** A set of windows and the calls already in them. */
export interface Track {
  calls: readonly number[];
  windows: readonly WindowLimit[];
}

/** The windows background work sees (the same rule as the governor's). */
export function backgroundWindows(limits: Limits, reserve: number): WindowLimit[] {
  return windowLimits(limits).map((w) => (w.name === 'minute' ? w : { ...w, limit: Math.max(0, w.limit - reserve) }));
}

export interface TrackInput {
  accountCalls: readonly number[];
  limits: Limits;
  /** Every account's calls, with the deployment's limits; absent when the deployment has none. */
  deployment?: { calls: readonly number[]; limits: Limits };
  reserve: number;
}

export function backgroundTracks(input: TrackInput): Track[] {
  const tracks: Track[] = [{ calls: input.accountCalls, windows: backgroundWindows(input.limits, input.reserve) }];
  if (input.deployment) tracks.push({ calls: input.deployment.calls, windows: backgroundWindows(input.deployment.limits, input.reserve) });
  return tracks;
}

/** Background calls a minute, an hour and a day: the tightest of the tracks. */
export function backgroundRate(tracks: readonly Track[]): { perMinute: number; perHour: number; perDay: number } {
  const limit = (name: 'minute' | 'hour' | 'day') => Math.min(...tracks.map((t) => t.windows.find((w) => w.name === name)?.limit ?? Number.POSITIVE_INFINITY));
  return { perMinute: limit('minute'), perHour: limit('hour'), perDay: limit('day') };
}

function earliest(tracks: readonly Track[], at: number): number {
  return Math.max(at, ...tracks.map((t) => earliestCall(t.calls, at, t.windows).at));
}

/** The earliest moment a background call may go (Infinity: never, the reserve takes everything). */
export function nextBackgroundCallAt(tracks: readonly Track[], now: number, blockedUntil: number | null): number {
  return earliest(tracks, Math.max(now, blockedUntil ?? 0));
}

export interface PlanInput {
  tracks: readonly Track[];
  now: number;
  /** The upstream asked us to wait until then (429), or null. */
  blockedUntil: number | null;
  /** Calls of earlier exports of the account that go first. */
  callsAhead: number;
  /** Calls to plan. */
  count: number;
  /** How long one call holds the account's single in-flight slot. */
  callMs: number;
}

export interface CallPlan {
  startsAt: number;
  /** null: the calls can never go. */
  finishAt: number | null;
  /** Every call can go without waiting for a window: done within seconds. */
  fitsNow: boolean;
}

export function planCalls(input: PlanInput): CallPlan {
  const tracks = input.tracks.map((t) => ({ windows: t.windows, calls: [...t.calls] }));
  let t = Math.max(input.now, input.blockedUntil ?? 0);
  let waited = t > input.now;
  let startsAt = t;
  const total = input.callsAhead + input.count;
  for (let i = 0; i < total; i++) {
    const at = earliest(tracks, t);
    if (!Number.isFinite(at)) return { startsAt, finishAt: null, fitsNow: false };
    if (at > t) waited = true;
    if (i === input.callsAhead) startsAt = at;
    for (const track of tracks) track.calls.push(at);
    t = at + input.callMs;
  }
  if (input.count === 0) startsAt = t;
  return { startsAt, finishAt: t, fitsNow: input.callsAhead === 0 && !waited };
}
