'use client';
import { useSyncExternalStore } from 'react';

/** A phone held upright, about: below this width a chart gives its room to the bars, not the labels. */
const NARROW = '(max-width: 640px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the screen is narrow. false while the server renders and the browser hydrates (as
 * use-hydrated.ts), so the first paint matches the server's HTML; then what the screen says.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}
