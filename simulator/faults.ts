/**
 * Injected misbehaviour, set by tests or by hand through /__admin/faults, to see how a client copes
 * with what a real upstream (or a proxy in front of it) does on a bad day. Faults apply to query and
 * detail requests only — those are what a client must survive — for the next `count` of them, or
 * until cleared.
 */

export interface FaultSpec {
  /** Extra delay before answering, ms. */
  latencyMs?: number;
  /** Answer with this status instead (401: the key's queries refused, whatever its token). */
  status?: 401 | 500 | 502 | 503;
  /** Never answer; the request ends when the client gives up. */
  hang?: boolean;
  /** 200 with a body that is not JSON. */
  malformed?: boolean;
  /** 200 with the JSON answer cut in the middle (Content-Length matches the cut body). */
  truncated?: boolean;
  /**
   * A result page with its last N records left out and total_found as it was: an upstream whose
   * pages and count disagree (records that moved between pages, a page size capped below the one
   * asked for).
   */
  shortBy?: number;
  /**
   * A result page whose last record is its first again, the count as it was: an upstream whose
   * order has no stable tie sends a record twice and another not at all, and every count matches.
   */
  repeatFirst?: boolean;
  /** Every token issued so far becomes expired (a one-off action at the moment the fault is set). */
  expireTokens?: boolean;
  /** Apply to the next N query/detail requests; default: until cleared. */
  count?: number;
  /** Error bodies as an HTML page instead of JSON, like a gateway's error page. */
  html?: boolean;
}

const BOOLEAN_KEYS = ['hang', 'malformed', 'truncated', 'repeatFirst', 'expireTokens', 'html'] as const;

export function parseFaultSpec(input: unknown): { ok: true; spec: FaultSpec } | { ok: false; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, message: 'a fault spec is a JSON object' };
  const o = input as Record<string, unknown>;
  const known = new Set<string>(['latencyMs', 'status', 'count', 'shortBy', ...BOOLEAN_KEYS]);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length > 0) return { ok: false, message: `unknown fault field(s): ${unknown.join(', ')}` };
  const spec: FaultSpec = {};
  if (o.latencyMs !== undefined) {
    if (typeof o.latencyMs !== 'number' || !(o.latencyMs >= 0))
      return { ok: false, message: 'latencyMs must be a number >= 0' };
    spec.latencyMs = o.latencyMs;
  }
  if (o.status !== undefined) {
    if (o.status !== 401 && o.status !== 500 && o.status !== 502 && o.status !== 503)
      return { ok: false, message: 'status must be 401, 500, 502 or 503' };
    spec.status = o.status;
  }
  if (o.shortBy !== undefined) {
    if (typeof o.shortBy !== 'number' || !Number.isInteger(o.shortBy) || o.shortBy < 1)
      return { ok: false, message: 'shortBy must be a whole number >= 1' };
    spec.shortBy = o.shortBy;
  }
  if (o.count !== undefined) {
    if (typeof o.count !== 'number' || !Number.isInteger(o.count) || o.count < 1)
      return { ok: false, message: 'count must be a whole number >= 1' };
    spec.count = o.count;
  }
  for (const k of BOOLEAN_KEYS) {
    if (o[k] === undefined) continue;
    if (typeof o[k] !== 'boolean') return { ok: false, message: `${k} must be true or false` };
    spec[k] = o[k];
  }
  return { ok: true, spec };
}

/** The faults in force for one request. */
export type AppliedFaults = Omit<FaultSpec, 'count' | 'expireTokens'>;

export class FaultState {
  private active: AppliedFaults | null = null;
  private remaining = Infinity;

  /** Replaces the faults in force. `expireTokens` is the caller's to act on; it is not kept. */
  set(spec: FaultSpec): void {
    const { count, expireTokens: _once, ...rest } = spec;
    const effective = Object.values(rest).some((v) => v !== undefined && v !== false && v !== 0);
    this.active = effective ? rest : null;
    this.remaining = count ?? Infinity;
  }

  clear(): void {
    this.active = null;
    this.remaining = Infinity;
  }

  current(): (AppliedFaults & { remaining: number | null }) | null {
    return this.active ? { ...this.active, remaining: Number.isFinite(this.remaining) ? this.remaining : null } : null;
  }

  /** The faults for the next query/detail request, counting it against `count`. */
  take(): AppliedFaults | null {
    if (!this.active) return null;
    const faults = this.active;
    if (--this.remaining <= 0) this.clear();
    return faults;
  }
}
