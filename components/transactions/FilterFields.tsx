'use client';
/**
 * One input per filter of the seed (plus enterprise), derived from FILTERS: labels from CDR_FIELDS,
 * status and network offering their known values, every value judged as the server judges it.
 */
import { KNOWN_NETWORKS } from '@/lib/cdr/networks';
import { DELIVERY_STATUSES } from '@/lib/cdr/status';
import { FILTERS, filterLabel, type FilterDef, type FilterParam } from '@/lib/query/filters';
import styles from './SearchForm.module.css';

const PLACEHOLDERS: Partial<Record<FilterParam, string>> = { da: '819012345678', network: '44010', status: '' };

export interface FilterFieldsProps {
  values: Record<FilterParam, string>;
  /** Problems to show now (already limited to fields the person has left or submitted). */
  problems: Partial<Record<FilterParam, string>>;
  enterpriseId?: string;
  onChange: (param: FilterParam, value: string) => void;
  onBlur: (param: FilterParam) => void;
}

function inputId(def: FilterDef) {
  return `filter-${def.param}`;
}

export function FilterFields({ values, problems, enterpriseId, onChange, onBlur }: FilterFieldsProps) {
  return (
    <fieldset className={styles.filters}>
      <legend className={styles.legend}>Filters</legend>
      <div className={styles.filterGrid}>
        {FILTERS.map((def) => {
          const id = inputId(def);
          const problem = problems[def.param];
          const common = {
            id,
            name: def.param,
            value: values[def.param],
            'aria-invalid': problem ? true : undefined,
            'aria-describedby': problem ? `${id}-problem` : undefined,
            onBlur: () => onBlur(def.param),
          } as const;
          return (
            <div key={def.param} className={styles.field} data-filter={def.param}>
              <label htmlFor={id} className={styles.label}>
                {filterLabel(def)}
              </label>
              {def.param === 'status' ? (
                <select {...common} className="control" onChange={(e) => onChange(def.param, e.target.value)}>
                  <option value="">Any status</option>
                  {DELIVERY_STATUSES.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.value} · {s.label}
                      {s.final ? '' : ' (in transit)'}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  className="control"
                  type="text"
                  inputMode={def.param === 'da' || def.param === 'network' ? 'numeric' : undefined}
                  spellCheck={false}
                  autoComplete="off"
                  list={def.param === 'network' ? 'known-networks' : undefined}
                  placeholder={
                    def.param === 'enterprise-id' && enterpriseId ? `${enterpriseId} (yours)` : (PLACEHOLDERS[def.param] ?? 'Any')
                  }
                  title={`Expected: ${def.hint}`}
                  onChange={(e) => onChange(def.param, e.target.value)}
                />
              )}
              {problem ? (
                <span id={`${id}-problem`} className={styles.fieldProblem}>
                  {problem}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
      <datalist id="known-networks">
        {KNOWN_NETWORKS.map((n) => (
          <option key={n.code} value={n.code}>
            {n.name}
          </option>
        ))}
      </datalist>
    </fieldset>
  );
}
