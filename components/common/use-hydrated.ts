'use client';
import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * false while the server renders and while the browser hydrates what it rendered; true after.
 * React reads the server snapshot during hydration, so what a component draws from it matches the
 * server's HTML even when the browser already knows more (see use-quota.ts).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
