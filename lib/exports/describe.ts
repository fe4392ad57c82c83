/**
 * The sentences a person reads about an export's cost and time. Browser-safe and pure: the server
 * writes them into the estimate, and tests pin them.
 */
import type { ExportSchedule } from './api';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/units';

/** `under a minute`, `about 25 min`, `about 4 h 10 min`, `about 3 d 4 h`. */
export function describeSpan(ms: number): string {
  if (ms < MINUTE_MS) return 'under a minute';
  if (ms < HOUR_MS) return `about ${Math.round(ms / MINUTE_MS)} min`;
  if (ms < DAY_MS) {
    const h = Math.floor(ms / HOUR_MS);
    const m = Math.round((ms - h * HOUR_MS) / MINUTE_MS / 5) * 5;
    return m === 0 ? `about ${h} h` : m === 60 ? `about ${h + 1} h` : `about ${h} h ${m} min`;
  }
  const d = Math.floor(ms / DAY_MS);
  const h = Math.round((ms - d * DAY_MS) / HOUR_MS);
  return h === 0 ? `about ${d} d` : h === 24 ? `about ${d + 1} d` : `about ${d} d ${h} h`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Where an export that makes no call reads its records from. */
export interface ReadWithoutCalls {
  /** Upstream pages already in the cache. */
  pagesCached: number;
  /** Whether any part is read from the local history. */
  local: boolean;
}

function withoutCalls({ pagesCached, local }: ReadWithoutCalls): string {
  if (pagesCached > 0 && local) return 'No upstream call: read from the local history and pages already cached.';
  if (pagesCached > 0) return 'No upstream call: every page is already cached.';
  return local ? 'No upstream call: read from the local history.' : 'No upstream call.';
}

/** "42 calls: about 6 h at 7 calls an hour; 3 calls an hour are kept for interactive use." */
export function describeSchedule(s: ExportSchedule, windowsUnknown: number, read: ReadWithoutCalls): string {
  const atLeast = windowsUnknown > 0 ? 'at least ' : '';
  const unknown =
    windowsUnknown > 0
      ? ` The size of ${plural(windowsUnknown, 'window')} is not known until ${windowsUnknown === 1 ? 'its' : 'their'} first page is read; each may cost more.`
      : '';
  if (s.calls === 0 && windowsUnknown === 0) return withoutCalls(read);
  if (s.finishAt === null || s.durationMs === null) {
    return sentence(
      `${atLeast}${plural(s.calls, 'call')}: they cannot go, because the ${s.reserve} calls kept for interactive use take every call of a window (lower UPSTREAM_BACKGROUND_RESERVE).`,
    );
  }
  const ahead = s.callsAhead > 0 ? ` ${plural(s.callsAhead, 'call')} of earlier exports go first.` : '';
  if (s.fitsNow)
    return sentence(`${atLeast}${plural(s.calls, 'call')}, free right now: ready in a few seconds.${unknown}`);
  const total = s.calls + s.callsAhead;
  // The window that sets the pace: the minute's when the hour's allows more than 60 minutes of it.
  const pace = s.perMinute * 60 < s.perHour ? `${s.perMinute} calls a minute` : `${s.perHour} calls an hour`;
  const rate = total > s.perDay ? `${pace} and ${s.perDay} a day` : pace;
  const kept =
    s.reserve > 0
      ? `; ${plural(s.reserve, 'call')} an hour ${s.reserve === 1 ? 'is' : 'are'} kept for interactive use`
      : '';
  return sentence(
    `${atLeast}${plural(s.calls, 'call')}: ${describeSpan(s.durationMs)} at ${rate}${kept}.${ahead}${unknown}`,
  );
}
