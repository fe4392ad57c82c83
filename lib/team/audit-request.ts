/**
 * GET /api/audit's parameters (`from`, `to`, `actor`, `action`, `number`, `before`, `tz`), checked
 * before the log is read: each wrong one named, with what it should be. Browser-safe: the audit
 * page builds its URL with the same names.
 */
import { filterDef, filterProblem } from '../query/filters';
import { parseWallClock, ZONES, type Zone } from '../time/zones';
import { msg, type Words } from '../i18n/message';
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
): { ok: true; request: AuditRequest } | { ok: false; errors: Record<string, Words> } {
  const errors: Record<string, Words> = {};
  for (const name of new Set(params.keys()))
    if (!(AUDIT_PARAMS as readonly string[]).includes(name))
      errors[name] = msg('team.problems.audit.unknownParam', { name, params: AUDIT_PARAMS.join(', ') });
  const get = (name: string) => {
    const v = params.get(name)?.trim();
    return v ? v : undefined;
  };
  const tz = (get('tz') ?? 'UTC') as Zone;
  if (!(ZONES as readonly string[]).includes(tz)) errors.tz = msg('team.problems.audit.tz');
  const request: AuditRequest = {};
  for (const [name, end] of [
    ['from', false],
    ['to', true],
  ] as const) {
    const value = get(name);
    if (value === undefined) continue;
    const at = instant(value, tz, end);
    if (at === null) errors[name] = msg('team.problems.audit.instant', { name, zone: tz });
    else request[name] = at;
  }
  const actor = get('actor');
  if (actor) request.actor = actor.slice(0, 200);
  const action = get('action');
  if (action && !isAuditAction(action)) errors.action = msg('team.problems.audit.action');
  else if (action) request.action = action;
  const number = get('number');
  if (number) {
    const def = filterDef('da');
    const normalised = def.normalise?.(number) ?? number;
    if (filterProblem(def, normalised)) errors.number = msg('team.problems.audit.number');
    else request.number = normalised;
  }
  const before = get('before');
  if (before && !/^\d{1,15}$/.test(before)) errors.before = msg('team.problems.audit.before');
  else if (before) request.before = Number(before);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request };
}

/** The link of the entries older than `before`, with the same filters (an answer's `next`). */
export function olderEntriesHref(path: string, params: URLSearchParams, before: number): string {
  const next = new URLSearchParams(params);
  next.set('before', String(before));
  return `${path}?${next.toString()}`;
}
