'use client';
import { useTranslations } from 'next-intl';
import { ZONES, type Zone } from '@/lib/time/zones';
import { ChoiceSwitch } from './choice-switch';
import { usePreferredZone } from './preferred-zone';

/**
 * UTC/JST as a two-way switch. Changing it rewrites times on screen; it never costs an upstream call.
 * The zone picked is remembered: pages opened without one in their URL open in it.
 */
export function ZoneToggle({ zone, onChange: pageChange }: { zone: Zone; onChange: (zone: Zone) => void }) {
  const t = useTranslations('detail.zone');
  const { choose } = usePreferredZone();
  return (
    <ChoiceSwitch
      label={t('label')}
      name="zone"
      value={zone}
      onChange={(next) => {
        choose(next);
        pageChange(next);
      }}
      options={ZONES.map((z) => ({
        value: z,
        label: z,
        title: t('hint', { zone: z }),
      }))}
    />
  );
}
