'use client';
import { ZONES, type Zone } from '@/lib/time/zones';
import { usePreferredZone } from './preferred-zone';
import styles from './zone-toggle.module.css';

const ZONE_HINTS: Record<Zone, string> = { UTC: 'Coordinated Universal Time', JST: 'Japan Standard Time, UTC+9' };

/**
 * UTC/JST as a two-way switch. Changing it rewrites times on screen; it never costs an upstream call.
 * The zone picked is remembered: pages opened without one in their URL open in it.
 */
export function ZoneToggle({ zone, onChange: pageChange }: { zone: Zone; onChange: (zone: Zone) => void }) {
  const { choose } = usePreferredZone();
  const onChange = (next: Zone) => {
    choose(next);
    pageChange(next);
  };
  return (
    <div className={styles.toggle} role="radiogroup" aria-label="Time zone">
      {ZONES.map((z) => (
        <button
          key={z}
          type="button"
          role="radio"
          aria-checked={z === zone}
          className={styles.option}
          title={`${ZONE_HINTS[z]}: every time shown and the range you pick are read in ${z}.`}
          onClick={() => z !== zone && onChange(z)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
              e.preventDefault();
              const next = ZONES[(ZONES.indexOf(z) + 1) % ZONES.length]!;
              onChange(next);
              (e.currentTarget.parentElement?.querySelector(`[data-zone="${next}"]`) as HTMLElement | null)?.focus();
            }
          }}
          tabIndex={z === zone ? 0 : -1}
          data-zone={z}
        >
          {z}
        </button>
      ))}
    </div>
  );
}
