'use client';
/**
 * The range picker: presets computed at click time in the chosen zone, and two native
 * datetime-local inputs (a time of day at both ends, to the second). The search's range limit is enforced
 * here, with a message, before any request could fail on it.
 */
import { useLocale, useTranslations } from 'next-intl';
import type { Zone } from '@/lib/time/zones';
import { useWords } from '@/lib/i18n/use-words';
import { presetRange, RANGE_PRESETS } from '@/lib/search';
import type { WallRange } from '@/lib/query/draft';
import { SEARCH_MAX_RANGE_DAYS } from '@/lib/query/query';
import { fromInputValue, latestEndFor, rangeSpan, toInputValue, type RangeProblems } from '@/lib/search';
import styles from './search-form.module.css';

export interface DateRangePickerProps {
  range: WallRange;
  zone: Zone;
  problems: RangeProblems;
  onChange: (range: WallRange) => void;
}

export function DateRangePicker({ range, zone, problems, onChange }: DateRangePickerProps) {
  const t = useTranslations('search.range');
  const span = rangeSpan(range, zone, useLocale());
  const latestEnd = latestEndFor(range.dateFrom, zone);
  const say = useWords();
  const problemWords = problems['date-to'] ?? problems['date-from'];
  const problem = problemWords === undefined ? undefined : say(problemWords);

  return (
    <fieldset className={styles.range}>
      <legend className={styles.legend}>
        {t('legend')} <span className={styles.zoneTag}>{zone}</span>
      </legend>
      <div className={styles.presets} role="group" aria-label={t('presets')}>
        {RANGE_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            className={styles.preset}
            data-preset={p.id}
            // Computed now, in the zone shown: "today" is today in that zone, at the moment of the click.
            onClick={() => onChange(presetRange(p.id, new Date(), zone))}
          >
            {t(`preset.${p.id}`, { days: SEARCH_MAX_RANGE_DAYS })}
          </button>
        ))}
      </div>
      <div className={styles.rangeInputs}>
        <label className={styles.field}>
          <span className={styles.label}>{t('from', { zone })}</span>
          <input
            type="datetime-local"
            step={1}
            name="date-from"
            className="control"
            value={toInputValue(range.dateFrom)}
            aria-invalid={problems['date-from'] ? true : undefined}
            aria-describedby="range-message"
            onChange={(e) => onChange({ ...range, dateFrom: fromInputValue(e.target.value) })}
          />
        </label>
        <span className={styles.arrow} aria-hidden="true">
          →
        </span>
        <label className={styles.field}>
          <span className={styles.label}>{t('to', { zone })}</span>
          <input
            type="datetime-local"
            step={1}
            name="date-to"
            className="control"
            value={toInputValue(range.dateTo)}
            min={range.dateFrom ? toInputValue(range.dateFrom) : undefined}
            max={latestEnd ? toInputValue(latestEnd) : undefined}
            aria-invalid={problems['date-to'] ? true : undefined}
            aria-describedby="range-message"
            onChange={(e) => onChange({ ...range, dateTo: fromInputValue(e.target.value) })}
          />
        </label>
      </div>
      <p
        id="range-message"
        className={problem ? styles.rangeProblem : styles.rangeHint}
        aria-live="polite"
        data-testid="range-message"
      >
        {problem
          ? span?.over
            ? `${t('tooLong', { span: span.text, over: span.over })} ${problem}`
            : problem
          : span
            ? t('spans', { span: span.text, zone })
            : ''}
      </p>
    </fieldset>
  );
}
