/**
 * Record timestamps, written by lib/time/zones.ts's formatUpstreamTimestamp — the one definition of
 * the format — but memoised per hour: that function goes through Intl and costs ~30 µs, and a page
 * of 100 records needs 300 of them. Both zones (UTC, JST) are whole-hour offsets, so within an hour
 * only minutes, seconds and milliseconds change, and they read the same in every zone.
 */
import { formatUpstreamTimestamp, type Zone } from '../lib/time/zones';

const HOUR_MS = 3600_000;
const cache = new Map<number, { head: string; tail: string }>();

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** Same output as formatUpstreamTimestamp(new Date(ms), zone), e.g. `2026-03-15T12:34:56.789+0900`. */
export function upstreamTimestamp(ms: number, zone: Zone): string {
  const hour = Math.floor(ms / HOUR_MS);
  const key = hour * 2 + (zone === 'JST' ? 1 : 0);
  let parts = cache.get(key);
  if (!parts) {
    // `YYYY-MM-DDTHH:00:00.000±hhmm` → head `YYYY-MM-DDTHH:`, tail `±hhmm`.
    const whole = formatUpstreamTimestamp(new Date(hour * HOUR_MS), zone);
    const at = whole.indexOf(':00:00.000');
    if (at < 0) throw new Error(`unexpected timestamp format: ${whole}`);
    parts = { head: whole.slice(0, at + 1), tail: whole.slice(at + ':00:00.000'.length) };
    if (cache.size > 100_000) cache.clear();
    cache.set(key, parts);
  }
  const inHour = ms - hour * HOUR_MS;
  const minute = Math.floor(inHour / 60_000);
  const second = Math.floor((inHour % 60_000) / 1000);
  return `${parts.head}${pad2(minute)}:${pad2(second)}.${pad3(inHour % 1000)}${parts.tail}`;
}
