import 'server-only';
/**
 * The token endpoint's answer (notes.md): `{ account: { account_id, product }, jwt_token,
 * token_valid_until }`. Not a CDR resource, so its schema lives here rather than in lib/cdr.
 */
import { z } from 'zod';

/** A token lives 15 minutes (notes.md). */
export const DOCUMENTED_TOKEN_LIFETIME_MS = 15 * 60 * 1000;

export const tokenResponseSchema = z
  .object({
    jwt_token: z.string().min(1),
    account: z
      .object({
        account_id: z.union([z.string(), z.number()]).optional(),
        product: z.union([z.string(), z.number()]).optional(),
      })
      .loose()
      .optional(),
    token_valid_until: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .loose();

/**
 * `YYYY/MM/DD HH:mm:ss` (the token page) or `yyyy-MM-dd HH:mm:ss` (another page), both UTC. Also
 * tolerated: a `T`, fractions of a second and an explicit offset (honoured when present).
 */
const VALID_UNTIL = /^(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Returns epoch milliseconds, or null when the value is missing or unreadable. */
export function parseTokenValidUntil(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    // Not documented, but an epoch is the obvious alternative: seconds or milliseconds.
    if (!Number.isFinite(value) || value <= 0) return null;
    return value < 1e11 ? value * 1000 : value;
  }
  const m = VALID_UNTIL.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', offset = 'Z'] = m;
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
  const at = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}${zone}`);
  if (Number.isNaN(at)) return null;
  // Date.parse rolls 2026-02-30 over into March; a date that does not round-trip is garbage.
  const check = new Date(at + (zone === 'Z' ? 0 : offsetMs(zone)));
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() + 1 !== Number(mo)) return null;
  return at;
}

function offsetMs(zone: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(zone);
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}
