/**
 * Reading a QuotaSnapshot for people: which limit binds, and how long until the next free call.
 */
import type { QuotaSnapshot, QuotaWindow, WindowName } from './api';

export const WINDOW_WORDS: Record<WindowName, string> = { minute: 'this minute', hour: 'this hour', day: 'today' };

const WINDOW_RANK: Record<WindowName, number> = { minute: 0, hour: 1, day: 2 };

/**
 * The window with the fewest calls left — the account's own or, where the upstream counts per IP,
 * the dashboard's shared one — on a tie the longer one, because it refills more slowly and is the
 * one worth knowing about.
 */
export function tightestWindow(quota: QuotaSnapshot): (QuotaWindow & { shared: boolean }) | undefined {
  const all = [
    ...quota.windows.map((w) => ({ ...w, shared: false })),
    ...(quota.shared ?? []).map((w) => ({ ...w, shared: true })),
  ];
  return all.sort((a, b) => a.remaining - b.remaining || WINDOW_RANK[b.name] - WINDOW_RANK[a.name])[0];
}

/** The shared windows that hold the account back more than its own (shown in the meter, labelled). */
export function bindingSharedWindows(quota: QuotaSnapshot): QuotaWindow[] {
  return (quota.shared ?? []).filter(
    (s) => s.remaining < (quota.windows.find((w) => w.name === s.name)?.remaining ?? Number.POSITIVE_INFINITY),
  );
}

/** The later of nextCallAt and blockedUntil as an epoch ms (may be in the past: then a call can go). */
export function quotaWaitUntil(quota: QuotaSnapshot): number | null {
  const times = [quota.nextCallAt, quota.blockedUntil]
    .map((t) => (t ? Date.parse(t) : NaN))
    .filter((t) => !Number.isNaN(t));
  return times.length > 0 ? Math.max(...times) : null;
}
