'use client';
/**
 * The column set (visibility and order) kept in this browser's localStorage, shared by every table
 * on the page and kept in step across tabs.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { COLUMN_PREFS_STORAGE_KEY, parseStoredColumnPrefs, type ColumnPrefs } from '@/lib/search';

const CHANGED = 'column-prefs-changed';

function subscribe(onChange: () => void) {
  const onStorage = (e: StorageEvent) => e.key === COLUMN_PREFS_STORAGE_KEY && onChange();
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

function read(): string | null {
  try {
    return window.localStorage.getItem(COLUMN_PREFS_STORAGE_KEY);
  } catch {
    return null; // storage disabled: the defaults serve
  }
}

export function useColumnPrefs(): [ColumnPrefs, (next: ColumnPrefs) => void] {
  // The server has no storage: it renders the defaults, and the browser's choice follows.
  const stored = useSyncExternalStore(subscribe, read, () => null);
  const prefs = useMemo(() => parseStoredColumnPrefs(stored), [stored]);
  const save = useCallback((next: ColumnPrefs) => {
    try {
      window.localStorage.setItem(COLUMN_PREFS_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or disabled: the change lasts until the tab closes, via the event below.
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [prefs, save];
}
