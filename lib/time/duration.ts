/**
 * A span of time for a person, in any zone (a wait, a latency): the server's messages and the
 * browser's pages say it the same way.
 */

/** `4.2 s`, `3 min 12 s`, `2 h 5 min`, `1 d 3 h`: a latency or a span, to the precision that matters. */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '−' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) {
    const s = abs / 1000;
    return `${sign}${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  }
  const totalSeconds = Math.round(abs / 1000);
  const d = Math.floor(totalSeconds / 86_400);
  const h = Math.floor((totalSeconds % 86_400) / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (d > 0) return `${sign}${d} d${h ? ` ${h} h` : ''}`;
  if (h > 0) return `${sign}${h} h${m ? ` ${m} min` : ''}`;
  return `${sign}${m} min${s ? ` ${s} s` : ''}`;
}
