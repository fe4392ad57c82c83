import 'server-only';
/**
 * Retry-After (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date. Returns milliseconds from
 * `now`, never negative; undefined when absent or unreadable (the governor then uses its own
 * backoff rather than trusting a guess).
 */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Some servers send fractional seconds; harmless to accept.
  if (/^\d+\.\d+$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP-date always names a weekday and GMT; requiring a letter keeps Date.parse from reading
  // odd numeric strings ("-5", "1e3") as dates.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
