'use client';
/**
 * One input per filter, rendered from the filter definitions (lib/query/filters.ts, derived from
 * the field list): label, input kind, choices, placeholder and the hint of what a valid value looks
 * like all come from there, and every value is judged by the server's own parser.
 */
import { useTranslations } from 'next-intl';
import { statusInfo } from '@/lib/cdr/status';
import type { Words } from '@/lib/i18n/message';
import { useWords } from '@/lib/i18n/use-words';
import type { FilterDef, FilterParam } from '@/lib/query/filters';
import styles from './search-form.module.css';

export interface FilterFieldsProps {
  legend: string;
  filters: readonly FilterDef[];
  values: Record<FilterParam, string>;
  /** Problems to show now (already limited to fields the person has left or submitted). */
  problems: Partial<Record<FilterParam, Words>>;
  /** Values that apply when the field is left empty (e.g. the account's own enterprise). */
  implied?: Partial<Record<FilterParam, string>>;
  onChange: (param: FilterParam, value: string) => void;
  onBlur: (param: FilterParam) => void;
  /** Said under the legend (e.g. which part of the range these filters can search). */
  note?: string;
}

const INPUT_MODE = { text: undefined, numeric: 'numeric', decimal: 'decimal', select: undefined } as const;

export function FilterFields({
  legend,
  filters,
  values,
  problems,
  implied = {},
  onChange,
  onBlur,
  note,
}: FilterFieldsProps) {
  const t = useTranslations('fields.filter');
  const tf = useTranslations('search.form');
  const tc = useTranslations('cdr');
  const say = useWords();
  // A status is its code (the API's word) and its name in the page's language.
  const statusChoice = (value: string) => {
    const info = statusInfo(value);
    if (!info) return value;
    return `${value} · ${tc(`status.${info.value}.label`)}${info.final ? '' : tf('inTransit')}`;
  };
  return (
    <fieldset className={styles.filters}>
      <legend className={styles.legend}>{legend}</legend>
      {note ? <p className={styles.filterNote}>{note}</p> : null}
      <div className={styles.filterGrid}>
        {filters.map((def) => {
          const id = `filter-${def.param}`;
          const problem = problems[def.param];
          const listId = def.input !== 'select' && def.choices ? `${id}-choices` : undefined;
          const common = {
            id,
            name: def.param,
            value: values[def.param] ?? '',
            'aria-invalid': problem ? true : undefined,
            'aria-describedby': problem ? `${id}-problem` : undefined,
            onBlur: () => onBlur(def.param),
          } as const;
          return (
            <div key={def.param} className={styles.field} data-filter={def.param}>
              <label htmlFor={id} className={styles.label}>
                {t(`${def.param}.label`)}
              </label>
              {def.input === 'select' ? (
                <select {...common} className="control" onChange={(e) => onChange(def.param, e.target.value)}>
                  <option value="">
                    {def.placeholder ? t(`${def.param}.placeholder` as 'status.placeholder') : tf('any')}
                  </option>
                  {def.choices?.map((c) => (
                    <option key={c.value} value={c.value}>
                      {def.param === 'status' ? statusChoice(c.value) : c.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  className="control"
                  type="text"
                  inputMode={INPUT_MODE[def.input]}
                  spellCheck={false}
                  autoComplete="off"
                  list={listId}
                  placeholder={
                    implied[def.param]
                      ? tf('yours', { value: implied[def.param]! })
                      : def.placeholder
                        ? t(`${def.param}.placeholder` as 'status.placeholder')
                        : tf('any')
                  }
                  title={tf('expected', { hint: t(`${def.param}.hint`) })}
                  onChange={(e) => onChange(def.param, e.target.value)}
                />
              )}
              {listId ? (
                <datalist id={listId}>
                  {def.choices?.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </datalist>
              ) : null}
              {problem ? (
                <span id={`${id}-problem`} className={styles.fieldProblem}>
                  {say(problem)}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
