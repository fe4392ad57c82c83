/**
 * One colour per delivery status, by its tone (delivered green, failures reds, in-transit ambers,
 * skipped grey), distinct enough to tell stacked bars apart and dark enough for text beside them.
 */
import { DELIVERY_STATUSES } from '@/lib/cdr/status';

export const STATUS_COLOURS: Record<string, string> = {
  DELIVRD: '#2e8b57',
  ENROUTE: '#d9a21b',
  ACCEPTD: '#b7791f',
  UNKNOWN: '#8d6e63',
  EXPIRED: '#e0625a',
  DELETED: '#a83279',
  UNDELIV: '#c0392b',
  REJECTD: '#7f1d1d',
  SKIPPED: '#8a94a6',
};

/** Statuses in the order stacks are drawn: delivered at the bottom, then the rest as the list has them. */
export const STATUS_ORDER: readonly string[] = DELIVERY_STATUSES.map((s) => s.value);

export function colourOf(status: string): string {
  return STATUS_COLOURS[status] ?? '#5d6776';
}

export const RATE_COLOUR = '#1d5bb8';
export const SERIES_COLOURS = ['#1d5bb8', '#d9822b', '#7b3fa0', '#2e8b57', '#c0392b'];
