/**
 * A row's send time as people's systems log it, read into the span of instants its record was
 * received in. A send log writes times many ways: `2026-11-01 10:00:05`, Excel's `2026/11/1 9:05`,
 * ISO with an offset (`2026-11-01T10:00:05+09:00`, `…Z`), the upstream's own `…+0900`, a Japanese
 * `2026年11月1日 10:00`, or a date alone. A wall clock without an offset is read in the
 * reconciliation's zone; a date alone is that whole day.
 *
 * Why a span and not the instant: the platform receives a message a moment after the sender's
 * system logs it, and the two clocks differ by seconds to minutes; SLACK_MS either side finds the
 * record without reading hours around it. Pure.
 */
import { halfWidth } from '../cdr/typed-text';
import { DAY_MS, MINUTE_MS } from '../time/units';
import { parseUpstreamTimestamp, parseWallClock, type Zone } from '../time/zones';

/** How far from the logged send time the record's received time may lie, either way. */
export const SLACK_MS = 10 * MINUTE_MS;

export interface SendSpan {
  /** The instant the row names (a date alone: its first instant). */
  at: number;
  /** Received times that answer the row, both inclusive (ms). */
  from: number;
  to: number;
  /** A date alone: the span is its whole day. */
  wholeDay: boolean;
}

const pad = (n: string) => n.padStart(2, '0');

/** `2026/1/5 9:05`, `2026年1月5日 9時05分`, `2026-01-05T09:05:00` → `2026-01-05 09:05:00`; null when it is not that shape. */
function wallClockOf(text: string): { date: string; time: string | null } | null {
  const m =
    /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:(?:[ T]+|\s*)(\d{1,2})[:時](\d{1,2})(?:[:分](\d{1,2})(?:\.\d+)?秒?)?分?)?$/.exec(
      text,
    );
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const date = `${y}-${pad(mo!)}-${pad(d!)}`;
  return { date, time: h === undefined ? null : `${pad(h)}:${pad(mi!)}:${pad(s ?? '0')}` };
}

const WITH_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** Reads a send time; null when it cannot be read as one. */
export function readSendTime(cell: string, zone: Zone): SendSpan | null {
  const text = halfWidth(cell).trim();
  if (text === '') return null;
  if (WITH_OFFSET.test(text) && /\d[T ]\d/.test(text)) {
    const instant = parseUpstreamTimestamp(text.replace(/z$/, 'Z'));
    return instant ? around(instant.getTime()) : null;
  }
  const wall = wallClockOf(text);
  if (!wall) return null;
  if (wall.time === null) {
    const start = parseWallClock(`${wall.date} 00:00:00`, zone);
    return start
      ? { at: start.getTime(), from: start.getTime(), to: start.getTime() + DAY_MS - 1, wholeDay: true }
      : null;
  }
  const instant = parseWallClock(`${wall.date} ${wall.time}`, zone);
  return instant ? around(instant.getTime()) : null;
}

function around(at: number): SendSpan {
  return { at, from: at - SLACK_MS, to: at + SLACK_MS, wholeDay: false };
}
