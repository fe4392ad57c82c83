'use client';
import { ZONES, type Zone } from '@/lib/time/zones';
import { ChoiceSwitch } from './choice-switch';
import { usePreferredZone } from './preferred-zone';

const ZONE_HINTS: Record<Zone, string> = { UTC: 'Coordinated Universal Time', JST: 'Japan Standard Time, UTC+9' };

/**
 * UTC/JST as a two-way switch. Changing it rewrites times on screen; it never costs an upstream call.
 * The zone picked is remembered: pages opened without one in their URL open in it.
 */
export function ZoneToggle({ zone, onChange: pageChange }: { zone: Zone; onChange: (zone: Zone) => void }) {
  const { choose } = usePreferredZone();
  return (
    <ChoiceSwitch
      label="Time zone"
      name="zone"
      value={zone}
      onChange={(next) => {
        choose(next);
        pageChange(next);
      }}
      options={ZONES.map((z) => ({
        value: z,
        label: z,
        title: `${ZONE_HINTS[z]}: every time shown and the range you pick are read in ${z}.`,
      }))}
    />
  );
}
