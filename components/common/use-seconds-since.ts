'use client';
import { useEffect, useState } from 'react';

/**
 * Seconds since `atMs` (epoch ms; 0 when absent), looked at again every `everyMs`: for labels that
 * say how old what is shown is ("3 min ago"), which must not stay "just now" while the page is open.
 */
export function useSecondsSince(atMs: number | undefined, everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!atMs) return;
    // At once (the clock moved since the last render), then every `everyMs`.
    const first = window.setTimeout(() => setNow(Date.now()), 0);
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [atMs, everyMs]);
  return atMs ? Math.max(0, (now - atMs) / 1000) : 0;
}
