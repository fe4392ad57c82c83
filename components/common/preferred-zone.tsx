'use client';
/**
 * The person's zone (lib/query/zone-preference.ts), given by the signed-in layout from its cookie and
 * changed by the zone switch: pages read it where their URL names no zone.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Zone } from '@/lib/time/zones';
import { QUERY_DEFAULTS } from '@/lib/query/query';
import { zoneCookie } from '@/lib/query/zone-preference';

interface PreferredZone {
  zone: Zone;
  /** Remembers `zone` for this browser (its cookie) and for the pages already open. */
  choose(zone: Zone): void;
}

const PreferredZoneContext = createContext<PreferredZone>({ zone: QUERY_DEFAULTS.tz, choose: () => undefined });

export function PreferredZoneProvider({ initial, children }: { initial: Zone; children: ReactNode }) {
  const [zone, setZone] = useState(initial);
  const choose = useCallback((next: Zone) => {
    document.cookie = zoneCookie(next, window.location.protocol === 'https:');
    setZone(next);
  }, []);
  const value = useMemo(() => ({ zone, choose }), [zone, choose]);
  return <PreferredZoneContext.Provider value={value}>{children}</PreferredZoneContext.Provider>;
}

export function usePreferredZone(): PreferredZone {
  return useContext(PreferredZoneContext);
}
