/**
 * zod schemas of the upstream's resources (seed §2), derived from CDR_FIELDS. Tolerant where the
 * real API may differ from the sample: unknown fields are kept, numbers that arrive as strings (or
 * strings that arrive as numbers) are accepted, and a missing field reads as "" ("not applicable").
 */
import { z } from 'zod';
import { CDR_FIELDS, type CdrFieldKey, type FieldDef } from './fields';

const text = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

/** Integers may arrive as 3 or "3"; "" or absent means not applicable (null). */
const integer = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === '') return null;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: `expected an integer, got ${JSON.stringify(v)}` });
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
