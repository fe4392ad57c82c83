/**
 * Which columns the table shows and in what order, kept per browser (localStorage). Always read
 * through normaliseColumnPrefs: a stored list may name a field that no longer exists or miss one
 * added since, and CDR_FIELDS stays the only list of fields.
 */
import { CDR_FIELDS, DEFAULT_VISIBLE_COLUMNS, type CdrFieldKey } from '../cdr/fields';

export interface ColumnPrefs {
  /** Every field, in display order. */
  order: CdrFieldKey[];
  /** The fields shown. */
  visible: CdrFieldKey[];
}

export const COLUMN_PREFS_STORAGE_KEY = 'sms-dashboard:columns:v1';

const ALL_KEYS: readonly CdrFieldKey[] = CDR_FIELDS.map((f) => f.key);
const isKey = (v: unknown): v is CdrFieldKey => typeof v === 'string' && (ALL_KEYS as readonly string[]).includes(v);

export function defaultColumnPrefs(): ColumnPrefs {
  return { order: [...ALL_KEYS], visible: [...DEFAULT_VISIBLE_COLUMNS] };
}

export function normaliseColumnPrefs(raw: unknown): ColumnPrefs {
  if (!raw || typeof raw !== 'object') return defaultColumnPrefs();
  const { order, visible } = raw as { order?: unknown; visible?: unknown };
  const known = Array.isArray(order) ? [...new Set(order.filter(isKey))] : [];
  const shown = Array.isArray(visible) ? [...new Set(visible.filter(isKey))] : [];
  if (shown.length === 0) return defaultColumnPrefs();
  // Fields added since the prefs were saved go at the end, hidden.
  return { order: [...known, ...ALL_KEYS.filter((k) => !known.includes(k))], visible: shown };
}

export function parseStoredColumnPrefs(stored: string | null): ColumnPrefs {
  if (!stored) return defaultColumnPrefs();
  try {
    return normaliseColumnPrefs(JSON.parse(stored));
  } catch {
    return defaultColumnPrefs();
  }
}

export function toggleColumn(prefs: ColumnPrefs, key: CdrFieldKey): ColumnPrefs {
  const shown = prefs.visible.includes(key);
  // The table always keeps one column.
  if (shown && prefs.visible.length === 1) return prefs;
  return { ...prefs, visible: shown ? prefs.visible.filter((k) => k !== key) : [...prefs.visible, key] };
}

/** Moves a column one place earlier (-1) or later (+1) in the order. */
export function moveColumn(prefs: ColumnPrefs, key: CdrFieldKey, delta: -1 | 1): ColumnPrefs {
  const i = prefs.order.indexOf(key);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= prefs.order.length) return prefs;
  const order = [...prefs.order];
  [order[i], order[j]] = [order[j]!, order[i]!];
  return { ...prefs, order };
}

/** The shown columns in display order. */
export function visibleInOrder(prefs: ColumnPrefs): CdrFieldKey[] {
  return prefs.order.filter((k) => prefs.visible.includes(k));
}
