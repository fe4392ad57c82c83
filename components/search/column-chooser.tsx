'use client';
/**
 * Which columns the table shows, and in what order: every field of CDR_FIELDS can be shown. The
 * choice is kept in this browser (localStorage).
 */
import { useEffect, useRef } from 'react';
import { FIELD_BY_KEY } from '@/lib/cdr/fields';
import { defaultColumnPrefs, moveColumn, toggleColumn, type ColumnPrefs } from '@/lib/search';
import styles from './column-chooser.module.css';

export function ColumnChooser({ prefs, onChange }: { prefs: ColumnPrefs; onChange: (prefs: ColumnPrefs) => void }) {
  const ref = useRef<HTMLDetailsElement>(null);

  // A popover closes on a click elsewhere and on Escape, as people expect.
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onPointer = (e: PointerEvent) => {
      if (details.open && !details.contains(e.target as Node)) details.open = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && details.open) {
        details.open = false;
        details.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    details.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      details.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <details ref={ref} className={styles.chooser}>
      <summary className="button button-small" data-testid="columns-button">
        Columns ({prefs.visible.length}/{prefs.order.length})
      </summary>
      <div className={styles.popover}>
        <p className={styles.hint}>Shown columns and their order are kept in this browser.</p>
        <ul className={styles.list}>
          {prefs.order.map((key, i) => {
            const field = FIELD_BY_KEY.get(key)!;
            const shown = prefs.visible.includes(key);
            return (
              <li key={key} className={styles.item}>
                <label className={styles.label}>
                  <input type="checkbox" checked={shown} onChange={() => onChange(toggleColumn(prefs, key))} />
                  {field.label}
                </label>
                <button
                  type="button"
                  className={styles.move}
                  disabled={i === 0}
                  aria-label={`Move ${field.label} earlier`}
                  onClick={() => onChange(moveColumn(prefs, key, -1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={styles.move}
                  disabled={i === prefs.order.length - 1}
                  aria-label={`Move ${field.label} later`}
                  onClick={() => onChange(moveColumn(prefs, key, 1))}
                >
                  ↓
                </button>
              </li>
            );
          })}
        </ul>
        <button type="button" className="button button-small" onClick={() => onChange(defaultColumnPrefs())}>
          Reset to default
        </button>
      </div>
    </details>
  );
}
