'use client';
/**
 * The days of the local history as month grids (UTC days, weeks from the reader's locale's first
 * day, newest month on top), each day coloured by its state with its record count; a legend names
 * the colours. Tables, because a calendar is one: a screen reader reads the weekday of each column
 * and the month of each table.
 */
import { useLocale, useTranslations } from 'next-intl';
import type { HistoryDay } from '@/lib/history';
import type { Zone } from '@/lib/time/zones';
import { WEEK_STARTS_ON } from '@/lib/i18n/format';
import { useFormat } from '@/lib/i18n/use-format';
import { useWords } from '@/lib/i18n/use-words';
import { calendarMonths, dayLabel, weekdayColumns, type CalendarDate } from '@/lib/history';
import { CalendarLegend } from './calendar-legend';
import styles from './history-calendar.module.css';

function DayCell({ date }: { date: CalendarDate | null }) {
  const say = useWords();
  const locale = useLocale();
  const f = useFormat();
  if (!date) return <td className={styles.pad} />;
  const { entry } = date;
  if (!entry) {
    return (
      <td className={styles.cell} data-state="outside">
        <span className={styles.number}>{date.dayOfMonth}</span>
      </td>
    );
  }
  const label = say(dayLabel(entry, locale));
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
      <span className={styles.count}>{showCount ? f.compactCount(entry.records) : ''}</span>
    </td>
  );
}

export function HistoryCalendar({ days, zone }: { days: readonly HistoryDay[]; zone: Zone }) {
  const t = useTranslations('history.calendar');
  const weekStartsOn = WEEK_STARTS_ON[useLocale()];
  const months = calendarMonths(days, weekStartsOn);
  return (
    <section className={`panel ${styles.calendar}`} aria-labelledby="history-days-title" data-testid="history-calendar">
      <div className={styles.head}>
        <h2 id="history-days-title" className={styles.title}>
          {t('title')}
        </h2>
        {/* What a UTC day is in the page's zone: the local history's unit is the UTC day, whatever zone the person reads in. */}
        <p className={styles.note} data-testid="history-days-note">
          {zone === 'JST' ? t('noteJST') : t('noteUTC')} {t('free')}
        </p>
      </div>
      <CalendarLegend days={days} />
      <div className={styles.months}>
        {months.map((month) => (
          <table key={month.key} className={styles.month} data-month={month.key}>
            <caption className={styles.caption}>{t('month', { year: month.year, month: month.month })}</caption>
            <thead>
              <tr>
                {weekdayColumns(weekStartsOn).map((w) => (
                  <th key={w} scope="col" abbr={t(`weekday.${w}.long`)} className={styles.weekday}>
                    {t(`weekday.${w}.short`)}
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
