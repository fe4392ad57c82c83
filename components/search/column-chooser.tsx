'use client';
/**
 * Which columns the table shows, and in what order: every field of CDR_FIELDS can be shown. The
 * choice is kept in this browser (localStorage).
 */
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { defaultColumnPrefs, moveColumn, toggleColumn, type ColumnPrefs } from '@/lib/search';
import styles from './column-chooser.module.css';

export function ColumnChooser({ prefs, onChange }: { prefs: ColumnPrefs; onChange: (prefs: ColumnPrefs) => void }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const t = useTranslations('search.columns');
  const tf = useTranslations('fields.field');

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
        {t('button', { shown: prefs.visible.length, all: prefs.order.length })}
      </summary>
      <div className={styles.popover}>
        <p className={styles.hint}>{t('hint')}</p>
        <ul className={styles.list}>
          {prefs.order.map((key, i) => {
            const label = tf(`${key}.label`);
            const shown = prefs.visible.includes(key);
            return (
              <li key={key} className={styles.item}>
                <label className={styles.label}>
                  <input type="checkbox" checked={shown} onChange={() => onChange(toggleColumn(prefs, key))} />
                  {label}
                </label>
                <button
                  type="button"
                  className={styles.move}
                  disabled={i === 0}
                  aria-label={t('earlier', { label })}
                  onClick={() => onChange(moveColumn(prefs, key, -1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={styles.move}
                  disabled={i === prefs.order.length - 1}
                  aria-label={t('later', { label })}
                  onClick={() => onChange(moveColumn(prefs, key, 1))}
                >
                  ↓
                </button>
              </li>
            );
          })}
        </ul>
        <button type="button" className="button button-small" onClick={() => onChange(defaultColumnPrefs())}>
          {t('reset')}
        </button>
      </div>
    </details>
  );
}
