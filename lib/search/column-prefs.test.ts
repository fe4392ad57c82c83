import { describe, expect, it } from 'vitest';
import { CDR_FIELDS, DEFAULT_VISIBLE_COLUMNS } from '../cdr/fields';
import {
  defaultColumnPrefs,
  moveColumn,
  normaliseColumnPrefs,
  parseStoredColumnPrefs,
  toggleColumn,
  visibleInOrder,
} from './column-prefs';

describe('column preferences', () => {
  it('default to the schema’s default columns in its order', () => {
    expect(visibleInOrder(defaultColumnPrefs())).toEqual(DEFAULT_VISIBLE_COLUMNS);
    expect(defaultColumnPrefs().order).toHaveLength(CDR_FIELDS.length);
  });

  it('survive a schema change: unknown fields dropped, new fields appended hidden', () => {
    const prefs = normaliseColumnPrefs({ order: ['price', 'gone_field', 'trx_id'], visible: ['price', 'gone_field'] });
    expect(prefs.order.slice(0, 2)).toEqual(['price', 'trx_id']);
    expect(prefs.order).toHaveLength(CDR_FIELDS.length);
    expect(prefs.visible).toEqual(['price']);
  });

  it('fall back to the defaults for garbage', () => {
    expect(parseStoredColumnPrefs('{not json')).toEqual(defaultColumnPrefs());
    expect(parseStoredColumnPrefs(JSON.stringify({ visible: [] }))).toEqual(defaultColumnPrefs());
    expect(parseStoredColumnPrefs(null)).toEqual(defaultColumnPrefs());
  });

  it('toggle and move columns, never hiding the last one', () => {
    const one = normaliseColumnPrefs({ order: [], visible: ['trx_id'] });
    expect(toggleColumn(one, 'trx_id')).toBe(one);
    const shown = toggleColumn(one, 'dcs');
    expect(shown.visible).toEqual(['trx_id', 'dcs']);
    const moved = moveColumn(defaultColumnPrefs(), 'trx_id', -1);
    expect(moved.order.slice(0, 2)).toEqual(['trx_id', 'date_received']);
    expect(moveColumn(moved, 'trx_id', -1)).toBe(moved);
  });
});
