'use client';
/**
 * The range picker: presets computed at click time in the chosen zone, and two native
 * datetime-local inputs (a time of day at both ends, to the second). The search's range limit is enforced
 * here, with a message, before any request could fail on it.
 */
import type { Zone } from '@/lib/time/zones';
import { presetRange, RANGE_PRESETS } from '@/lib/search';
import type { WallRange } from '@/lib/query/draft';
import { fromInputValue, latestEndFor, rangeSpan, toInputValue, type RangeProblems } from '@/lib/search';
import styles from './search-form.module.css';

export interface DateRangePickerProps {
  range: WallRange;
  zone: Zone;
  problems: RangeProblems;
  onChange: (range: WallRange) => void;
}

export function DateRangePicker({ range, zone, problems, onChange }: DateRangePickerProps) {
  const span = rangeSpan(range, zone);
  const latestEnd = latestEndFor(range.dateFrom, zone);
  const problem = problems['date-to'] ?? problems['date-from'];

  return (
    <fieldset className={styles.range}>
      <legend className={styles.legend}>
        Date range <span className={styles.zoneTag}>{zone}</span>
      </legend>
      <div className={styles.presets} role="group" aria-label="Range presets">
        {RANGE_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            className={styles.preset}
            data-preset={p.id}
            // Computed now, in the zone shown: "today" is today in that zone, at the moment of the click.
            onClick={() => onChange(presetRange(p.id, new Date(), zone))}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className={styles.rangeInputs}>
        <label className={styles.field}>
          <span className={styles.label}>From ({zone})</span>
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
          <span className={styles.label}>To ({zone})</span>
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
          ? span?.tooLong
            ? `This range spans ${span.text}. ${problem}`
            : problem
          : span
            ? `Spans ${span.text}, read in ${zone === 'JST' ? 'Japan time (UTC+9)' : 'UTC'}.`
            : ''}
      </p>
    </fieldset>
  );
}
