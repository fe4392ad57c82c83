'use client';
import { useEffect, useRef, useState } from 'react';

/**
 * Seconds left until `untilMs` (epoch ms), ticking once a second; null when there is nothing to
 * wait for. `onDone` runs once when a wait that was running reaches zero — the automatic retry
 * hangs off it. A target already in the past is no wait at all, and never fires `onDone`.
 */
export function useCountdown(untilMs: number | null, onDone?: () => void): number | null {
  const [now, setNow] = useState(() => Date.now());
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });

  useEffect(() => {
    if (untilMs === null) return;
    const waiting = untilMs > Date.now();
    let fired = false;
    const tick = () => {
      const t = Date.now();
      setNow(t);
      if (waiting && !fired && t >= untilMs) {
        fired = true;
        window.clearInterval(timer);
        done.current?.();
      }
    };
    // First tick at once (the clock has moved since the last render), then every second while waiting.
    const first = window.setTimeout(tick, 0);
    const timer = waiting ? window.setInterval(tick, 1000) : undefined;
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [untilMs]);

  if (untilMs === null) return null;
  return Math.max(0, (untilMs - now) / 1000);
}
