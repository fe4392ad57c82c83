'use client';
import { formatCountdown } from '@/lib/i18n/format';
import { useCountdown } from './use-countdown';

/** A live `0:41`. `onDone` fires once at zero. */
export function Countdown({ until, onDone }: { until: number; onDone?: () => void }) {
  const left = useCountdown(until, onDone) ?? 0;
  return (
    <span className="mono" role="timer" data-testid="countdown">
      {formatCountdown(left)}
    </span>
  );
}
