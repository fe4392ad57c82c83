/**
 * zod schemas of the upstream's resources (seed §2), derived from CDR_FIELDS. Tolerant where the
 * real API may differ from the sample: unknown fields are kept, numbers that arrive as strings (or
 * strings that arrive as numbers) are accepted, and a missing field reads as "" ("not applicable").
 */
import { z } from 'zod';
import { CDR_FIELDS, type CdrFieldKey, type FieldDef } from './fields';

/**
 * Text may arrive as a string, a number or a boolean (kept as its text); null or absent reads as "".
 * One check per value rather than a union of four schemas: a page holds thousands of these values,
 * and a union tries its members one by one.
 */
const text = z.unknown().optional().transform((v, ctx) => {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  ctx.addIssue({ code: 'custom', message: `expected text, got ${Array.isArray(v) ? 'an array' : typeof v}` });
  return z.NEVER;
});

/** Integers may arrive as 3 or "3"; "" or absent means not applicable (null). */
const integer = z.unknown().optional().transform((v, ctx) => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `expected an integer, got ${JSON.stringify(v) ?? typeof v}` });
    return z.NEVER;
  }
  return Math.trunc(n);
});

function fieldSchema(f: FieldDef) {
  return f.kind === 'integer' && f.key === 'how_many_message_parts' ? integer : text;
}

const linkSchema = z.object({ href: z.string() }).loose();

const cdrShape = Object.fromEntries(CDR_FIELDS.map((f) => [f.key, fieldSchema(f)])) as {
  [K in CdrFieldKey]: K extends 'how_many_message_parts' ? typeof integer : typeof text;
};

export const cdrSchema = z
  .object({
    ...cdrShape,
    trx_id: z.string().min(1),
    _links: z.object({ self: linkSchema.optional() }).loose().optional(),
  })
  .loose();

export type Cdr = z.infer<typeof cdrSchema>;

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
