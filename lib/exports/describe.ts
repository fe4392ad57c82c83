/**
 * The sentences a person reads about an export's cost and time. Browser-safe and pure: the server
 * writes them into the estimate, and tests pin them.
 */
import type { ExportSchedule } from './api';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/units';
import { msg, type Message } from '../i18n/message';

/** `under a minute`, `about 25 min`, `about 4 h 10 min`, `about 3 d 4 h` (`約4時間10分` in Japanese). */
export function describeSpan(ms: number): Message {
  if (ms < MINUTE_MS) return msg('exports.span.underMinute');
  if (ms < HOUR_MS) return msg('exports.span.about', { d: 0, h: 0, min: Math.round(ms / MINUTE_MS) });
  if (ms < DAY_MS) {
    const h = Math.floor(ms / HOUR_MS);
    const m = Math.round((ms - h * HOUR_MS) / MINUTE_MS / 5) * 5;
    return m === 60
      ? msg('exports.span.about', { d: 0, h: h + 1, min: 0 })
      : msg('exports.span.about', { d: 0, h, min: m });
  }
  const d = Math.floor(ms / DAY_MS);
  const h = Math.round((ms - d * DAY_MS) / HOUR_MS);
  return h === 24 ? msg('exports.span.about', { d: d + 1, h: 0, min: 0 }) : msg('exports.span.about', { d, h, min: 0 });
}

/** Where an export that makes no call reads its records from. */
export interface ReadWithoutCalls {
  /** Upstream pages already in the cache. */
  pagesCached: number;
  /** Whether any part is read from the local history. */
  local: boolean;
}

/**
 * "42 calls: about 6 h at 7 calls an hour; 3 calls an hour are kept for interactive use.", as
 * Words by key (messages/<locale>/exports.json `schedule`).
 */
export function describeSchedule(s: ExportSchedule, windowsUnknown: number, read: ReadWithoutCalls): Message {
  const atLeast = windowsUnknown > 0 ? 'yes' : 'no';
  const unknown = windowsUnknown > 0 ? msg('exports.schedule.unknown', { windows: windowsUnknown }) : '';
  if (s.calls === 0 && windowsUnknown === 0)
    return msg('exports.schedule.noCall', {
      cached: read.pagesCached > 0 ? 'yes' : 'no',
      local: read.local ? 'yes' : 'no',
    });
  if (s.finishAt === null || s.durationMs === null)
    return msg('exports.schedule.cannot', { atLeast, calls: s.calls, reserve: s.reserve });
  if (s.fitsNow) return msg('exports.schedule.fitsNow', { atLeast, calls: s.calls, unknown });
  const total = s.calls + s.callsAhead;
  // The window that sets the pace: the minute's when the hour's allows more than 60 minutes of it.
  const byMinute = s.perMinute * 60 < s.perHour;
  return msg('exports.schedule.paced', {
    atLeast,
    calls: s.calls,
    span: describeSpan(s.durationMs),
    pace: byMinute ? 'minute' : 'hour',
    rate: byMinute ? s.perMinute : s.perHour,
    perDay: total > s.perDay ? s.perDay : 0,
    reserve: s.reserve,
    ahead: s.callsAhead,
    unknown,
  });
}
