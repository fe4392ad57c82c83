/**
 * zod schemas of the upstream's resources (seed §2), derived from CDR_FIELDS. Tolerant where the
 * real API may differ from the sample: unknown fields are kept, numbers that arrive as strings (or
 * strings that arrive as numbers) are accepted, and a missing field reads as "" ("not applicable").
 */
import { z } from 'zod';
import { CDR_FIELDS, INTEGER_FIELDS, type CdrFieldKey, type IntegerField } from './fields';

/** A value that cannot be read as its field's kind: what was wrong with it. */
interface Unreadable {
  problem: string;
}

/** Text may arrive as a string, a number or a boolean (kept as its text); null or absent reads as "". */
function readText(v: unknown): string | Unreadable {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return { problem: `expected text, got ${Array.isArray(v) ? 'an array' : typeof v}` };
}

/** Integers may arrive as 3 or "3"; "" or absent means not applicable (null). */
function readInteger(v: unknown): number | null | Unreadable {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return { problem: `expected an integer, got ${JSON.stringify(v) ?? typeof v}` };
  return Math.trunc(n);
}

const isUnreadable = (v: unknown): v is Unreadable => typeof v === 'object' && v !== null;

/**
 * Every field with its reader, in the list's order (trx_id, a string by then, is read as itself):
 * the fields the list says the upstream sends as integers read as numbers, every other one as text.
 */
const FIELD_READERS = CDR_FIELDS.map((f) => ({
  key: f.key,
  read: (INTEGER_FIELDS as readonly CdrFieldKey[]).includes(f.key) ? readInteger : readText,
}));

const linkSchema = z.object({ href: z.string() }).loose();
const linksSchema = z.object({ self: linkSchema.optional() }).loose();

/**
 * The record's shape: every field of the list (in its order), then trx_id and the links checked.
 * The fields' values are read afterwards (cdrSchema): `z.unknown()` costs zod next to nothing.
 */
const recordSchema = z
  .object({
    ...(Object.fromEntries(CDR_FIELDS.map((f) => [f.key, z.unknown().optional()])) as Record<
      CdrFieldKey,
      z.ZodOptional<z.ZodUnknown>
    >),
    trx_id: z.string().min(1),
    _links: linksSchema.optional(),
  })
  .loose();

/** A record as the product reads it: every field of the list, unknown ones kept as they came. */
export type Cdr = { [K in CdrFieldKey]: K extends IntegerField ? number | null : string } & {
  _links?: z.output<typeof linksSchema>;
  [key: string]: unknown;
};

/**
 * The fields' values are read in one pass over the list, on the object zod built: a schema per
 * value (a transform each) made zod build and drop about twice the garbage, the most of any
 * step of an upstream page (bench/NOTES.md).
 */
export const cdrSchema = recordSchema.transform((record, ctx): Cdr => {
  const out = record as Record<string, unknown>;
  let absent = false;
  for (const { key, read } of FIELD_READERS) {
    if (!(key in out)) absent = true;
    const value = read(out[key]);
    if (isUnreadable(value)) ctx.addIssue({ code: 'custom', message: value.problem, path: [key], input: out[key] });
    else out[key] = value;
  }
  return (absent ? inListOrder(out) : out) as Cdr;
});

/**
 * A field the record did not have was added after its other keys: the record is laid out again,
 * the list's fields first, so its JSON (stored, and hashed for ETags) is the same however it came.
 */
function inListOrder(record: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const { key } of FIELD_READERS) ordered[key] = record[key];
  for (const key of Object.keys(record)) if (!(key in ordered)) ordered[key] = record[key];
  return ordered;
}

export const resultPageSchema = z
  .object({
    page_size: z.coerce.number().int(),
    page: z.coerce.number().int(),
    _links: z
      .object({
        // `null` for a link that does not apply (e.g. next on the last page) is common in HAL APIs.
        self: linkSchema.nullish(),
        next: linkSchema.nullish(),
        first: linkSchema.nullish(),
        last: linkSchema.nullish(),
      })
      .loose()
      .nullish()
      .transform((links) => links ?? {}),
    _embedded: z
      .object({
        total_found: z.coerce.number().int().nonnegative(),
        cdrs: z
          .array(cdrSchema)
          .nullish()
          .transform((cdrs) => cdrs ?? []),
      })
      .loose(),
  })
  .loose();

export type ResultPage = z.infer<typeof resultPageSchema>;

/** The detail resource: one CDR, or (tolerated) a CDR wrapped in a result page. */
export const detailSchema = z.union([
  cdrSchema,
  resultPageSchema.transform((page, ctx) => {
    const cdr = page._embedded.cdrs[0];
    if (!cdr) {
      ctx.addIssue({ code: 'custom', message: 'result page holds no CDR' });
      return z.NEVER;
    }
    return cdr;
  }),
]);
