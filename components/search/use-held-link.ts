'use client';
/**
 * Whether a view opened from a link waits for the person before it spends a call: opened from
 * another site (`heldLink`, told by the server), or reached through a sign-in page that was
 * (lib/search/held-after-sign-in.ts). Drawn first in the browser after sign-in (a client navigation):
 * no server HTML to match. The setter lets the person's own Search or Look it up release it.
 */
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { takeHeldView } from '@/lib/search';

export function useHeldLink(heldLink: boolean): [boolean, (held: boolean) => void] {
  const pathname = usePathname();
  return useState(() => heldLink || takeHeldView(pathname));
}
