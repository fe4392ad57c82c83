/**
 * The sentence that keeps coverage in view: "complete for Nov 1–20 (54,210 messages); Nov 21–23
 * not settled, not included" (`11月1日〜20日は集計済み(54,210件)。11月21日〜23日は未確定のため含みません`).
 * Days are the query's zone days, runs of one state written as one span. Pure: Words the API says
 * in the request's language (insights-service.ts) and the page shows word for word.
 */
import type { Locale } from '../i18n/locales';
import { msg, type Message } from '../i18n/message';
import type { CoveredDay, DayState } from './coverage';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Consecutive days of one state, as [first, last] day names. */
export function runsOf(days: readonly Pick<CoveredDay, 'day' | 'state'>[], state: DayState): [string, string][] {
  const runs: [string, string][] = [];
  let open: [string, string] | null = null;
  for (const d of days) {
    if (d.state === state) {
      if (open) open[1] = d.day;
      else runs.push((open = [d.day, d.day]));
    } else open = null;
  }
  return runs;
}

/**
 * A span of days as each language writes one. English: `Nov 1`, `Nov 1–20`, `Oct 30–Nov 2` (and
 * the year when the span crosses one: `Dec 30, 2026–Jan 2, 2027`). Japanese: `11月1日`,
 * `11月1日〜20日`, `10月30日〜11月2日`, `2026年12月30日〜2027年1月2日`.
 */
export function spanText([first, last]: [string, string], locale: Locale = 'en'): string {
  const [y1, m1, d1] = first.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = last.split('-').map(Number) as [number, number, number];
  if (locale === 'ja') {
    const crosses = y1 !== y2;
    const a = `${crosses ? `${y1}年` : ''}${m1}月${d1}日`;
    if (first === last) return a;
    return `${a}〜${crosses ? `${y2}年${m2}月` : m1 === m2 ? '' : `${m2}月`}${d2}日`;
  }
  const a = `${MONTHS[m1 - 1]} ${d1}`;
  if (first === last) return a;
  if (y1 !== y2) return `${a}, ${y1}–${MONTHS[m2 - 1]} ${d2}, ${y2}`;
  return m1 === m2 ? `${a}–${d2}` : `${a}–${MONTHS[m2 - 1]} ${d2}`;
}

/** `a`, `a and b`, `a, b and c` (`a、b、c`). */
function list(spans: string[]): Message | string {
  if (spans.length <= 1) return spans[0] ?? '';
  const head = spans
    .slice(1, -1)
    .reduce<Message | string>((a, b) => msg('insights.note.list', { first: a, second: b }), spans[0]!);
  return msg('insights.note.listLast', { first: head, last: spans[spans.length - 1]! });
}

export function coverageNote(
  days: readonly Pick<CoveredDay, 'day' | 'state'>[],
  records: number,
  locale: Locale = 'en',
): Message {
  const spans = (runs: [string, string][]) => list(runs.map((r) => spanText(r, locale)));
  const complete = runsOf(days, 'complete');
  const parts: Message[] = [
    complete.length > 0
      ? msg('insights.note.complete', { spans: spans(complete), n: records })
      : msg('insights.note.none'),
  ];
  for (const state of ['missing', 'syncing', 'unsettled'] as const) {
    const runs = runsOf(days, state);
    if (runs.length > 0) parts.push(msg(`insights.note.${state}`, { spans: spans(runs) }));
  }
  return parts.reduce((a, b) => msg('insights.note.joined', { first: a, second: b }));
}
