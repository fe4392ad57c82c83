/**
 * The days of the local history as month grids (UTC days, Monday first, newest month on top), each
 * day coloured by its state with its record count; a legend names the colours. Tables, because a
 * calendar is one: a screen reader reads the weekday of each column and the month of each table.
 */
import type { HistoryDay } from '@/lib/history';
import type { Zone } from '@/lib/time/zones';
import { formatCompactCount } from '@/lib/i18n/format';
import { calendarMonths, WEEKDAYS, type CalendarDate } from '@/lib/history';
import { dayLabel } from '@/lib/history';
import { CalendarLegend } from './calendar-legend';
import styles from './history-calendar.module.css';

function DayCell({ date }: { date: CalendarDate | null }) {
  if (!date) return <td className={styles.pad} />;
  const { entry } = date;
  if (!entry) {
    return (
      <td className={styles.cell} data-state="outside">
        <span className={styles.number}>{date.dayOfMonth}</span>
      </td>
    );
  }
  const label = dayLabel(entry);
  const showCount = entry.state === 'complete' || entry.records > 0;
  return (
    <td
      className={styles.cell}
      data-state={entry.state}
      data-day={entry.day}
      aria-label={label}
      title={label}
      data-testid="history-day"
    >
      <span className={styles.number}>{date.dayOfMonth}</span>
      <span className={styles.count}>{showCount ? formatCompactCount(entry.records) : ''}</span>
    </td>
  );
}

/** What a UTC day is in the page's zone: the copy's unit is the UTC day, whatever zone the person reads in. */
const DAY_NOTE: Record<Zone, string> = {
  UTC: 'UTC days, from the start day to today.',
  JST: 'UTC days (in Japan, 09:00 to 09:00 the next morning), from the start day to today in UTC. A JST day is free once both UTC days it touches are complete.',
};

export function HistoryCalendar({ days, zone }: { days: readonly HistoryDay[]; zone: Zone }) {
  const months = calendarMonths(days);
  return (
    <section className={`panel ${styles.calendar}`} aria-labelledby="history-days-title" data-testid="history-calendar">
      <div className={styles.head}>
        <h2 id="history-days-title" className={styles.title}>
          Days
        </h2>
        <p className={styles.note} data-testid="history-days-note">
          {DAY_NOTE[zone]} A day is searched for free once it is complete.
        </p>
      </div>
      <CalendarLegend days={days} />
      <div className={styles.months}>
        {months.map((month) => (
          <table key={month.key} className={styles.month} data-month={month.key}>
            <caption className={styles.caption}>{month.label}</caption>
            <thead>
              <tr>
                {WEEKDAYS.map((w) => (
                  <th key={w.short} scope="col" abbr={w.long} className={styles.weekday}>
                    {w.short}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {month.weeks.map((week, i) => (
                <tr key={i}>
                  {week.map((date, j) => (
                    <DayCell key={date?.day ?? `pad-${j}`} date={date} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  );
}
