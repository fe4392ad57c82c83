'use client';
/**
 * The person badge, loaded when drawn: it (and team mode's browser requests behind its account
 * switch) is code only a team session runs, so a personal session's pages do not carry it in their
 * first load (bench:ui's budget). next/dynamic splits a client component only when called from a
 * client component; called from the server's header, the badge would stay in the layout's chunks.
 */
import dynamic from 'next/dynamic';

export const PersonBadge = dynamic(() => import('./person-badge').then((m) => m.PersonBadge));
