/**
 * GET /api/audit's parameters (`from`, `to`, `actor`, `action`, `number`, `before`, `tz`), checked
 * before the log is read: each wrong one named, with what it should be. Browser-safe: the audit
 * page builds its URL with the same names.
 */
import { filterDef, filterProblem } from '../query/filters';
import { parseWallClock, ZONES, type Zone } from '../time/zones';
import { isAuditAction } from './api';

export const AUDIT_PARAMS = ['from', 'to', 'actor', 'action', 'number', 'before', 'tz'] as const;

export interface AuditRequest {
  from?: number;
  to?: number;
  actor?: string;
  action?: string;
  number?: string;
  before?: number;
}

/** A day (its first instant) or a wall clock, in the zone; a day as `to` runs to its last instant. */
function instant(value: string, zone: Zone, end: boolean): number | null {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = parseWallClock(day ? `${value} 00:00:00` : value, zone);
  if (!at) return null;
  return day && end ? at.getTime() + 86_400_000 - 1 : at.getTime();
}

export function parseAuditRequest(
  params: URLSearchParams,
): { ok: true; request: AuditRequest } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  for (const name of new Set(params.keys()))
    if (!(AUDIT_PARAMS as readonly string[]).includes(name))
      errors[name] = `${name} is not a parameter of the audit log; it takes ${AUDIT_PARAMS.join(', ')}.`;
  const get = (name: string) => {
    const v = params.get(name)?.trim();
    return v ? v : undefined;
  };
  const tz = (get('tz') ?? 'UTC') as Zone;
  if (!(ZONES as readonly string[]).includes(tz)) errors.tz = 'tz must be UTC or JST.';
  const request: AuditRequest = {};
  for (const [name, end] of [
    ['from', false],
    ['to', true],
  ] as const) {
    const value = get(name);
    if (value === undefined) continue;
    const at = instant(value, tz, end);
    if (at === null) errors[name] = `${name} must be a day (2026-11-01) or a time (2026-11-01 09:30:00), in ${tz}.`;
    else request[name] = at;
  }
  const actor = get('actor');
  if (actor) request.actor = actor.slice(0, 200);
  const action = get('action');
  if (action && !isAuditAction(action))
    errors.action = `action must be one of the audit log's actions (reveal, export, …).`;
  else if (action) request.action = action;
  const number = get('number');
  if (number) {
    const def = filterDef('da');
    const normalised = def.normalise?.(number) ?? number;
    if (filterProblem(def, normalised)) errors.number = `number must be ${def.hint}.`;
    else request.number = normalised;
  }
  const before = get('before');
  if (before && !/^\d{1,15}$/.test(before)) errors.before = 'before must be the id of an entry (from a `next` link).';
  else if (before) request.before = Number(before);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request };
}

/** The link of the entries older than `before`, with the same filters (an answer's `next`). */
export function olderEntriesHref(path: string, params: URLSearchParams, before: number): string {
  const next = new URLSearchParams(params);
  next.set('before', String(before));
  return `${path}?${next.toString()}`;
}
