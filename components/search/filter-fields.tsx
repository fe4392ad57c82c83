'use client';
/**
 * One input per filter, rendered from the filter definitions (lib/query/filters.ts, derived from
 * the field list): label, input kind, choices, placeholder and the hint of what a valid value looks
 * like all come from there, and every value is judged by the server's own parser.
 */
import type { FilterDef, FilterParam } from '@/lib/query/filters';
import styles from './search-form.module.css';

export interface FilterFieldsProps {
  legend: string;
  filters: readonly FilterDef[];
  values: Record<FilterParam, string>;
  /** Problems to show now (already limited to fields the person has left or submitted). */
  problems: Partial<Record<FilterParam, string>>;
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
                {def.label}
              </label>
              {def.input === 'select' ? (
                <select {...common} className="control" onChange={(e) => onChange(def.param, e.target.value)}>
                  <option value="">{def.placeholder ?? 'Any'}</option>
                  {def.choices?.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
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
                  placeholder={implied[def.param] ? `${implied[def.param]} (yours)` : (def.placeholder ?? 'Any')}
                  title={`Expected: ${def.hint}`}
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
                  {problem}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
