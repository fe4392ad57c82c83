import 'server-only';
/**
 * POST /api/reconciliations read into a list and its settings: `multipart/form-data` with `file`
 * (a CSV or TSV; a paste is sent as a file too) and the settings as fields, or JSON
 * `{"kind", "values": [...], "date-from", "date-to", "tz"}`. The body is read under its limit as
 * it arrives (lib/http/body-limit.ts): a larger one is refused before it is read whole. A file
 * that is not UTF-8 is read as Shift_JIS, as Excel in Japan saves CSV. Every setting that is wrong
 * is named in one 400, before anything is planned.
 */
import { readBodyWithLimit, readJsonBody } from '../http/body-limit';
import { badRequest, ProblemError } from '../http/problem';
import { parseZone, type FieldErrors, type ParseResult } from '../query/query';
import type { Zone } from '../time/zones';
import { RECONCILE_KINDS, type ReconcileKind } from './api';
import { parseListText, parseListValues, readCost, type ParsedList } from './parse-list';
import { readSendTime } from './send-time';
import type { Expected } from './summary';

/** 100,000 rows of a send log with a few columns fit in far less. */
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
const WHAT_TO_SEND =
  'Send a CSV of at most 100,000 rows as the `file` part of multipart/form-data, or JSON {"kind", "values": [...]}.';
const EXAMPLE =
  '{"kind": "trx_id", "values": ["956f5b9f1adb4ad8b8c5d6e7f8091a2b"], "date-from": "2026-11-01 00:00:00", "date-to": "2026-11-08 00:00:00", "tz": "JST"}';

export interface ReconcileInput {
  list: ParsedList;
  /** The upload's file name; null for a JSON list. */
  source: string | null;
  tz: Zone;
  /** The range of rows without a send time, as asked (ms); null when none was given. */
  range: { from: number; to: number } | null;
  expected: Expected;
}

/** Text of an uploaded file: UTF-8 (a BOM or none), else Shift_JIS. */
export function decodeUpload(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('shift_jis').decode(bytes);
  }
}

type Fields = { get(name: string): string | undefined };

function readRange(fields: Fields, tz: Zone, errors: FieldErrors): ReconcileInput['range'] {
  const fromText = fields.get('date-from')?.trim() ?? '';
  const toText = fields.get('date-to')?.trim() ?? '';
  if (fromText === '' && toText === '') return null;
  const from = readSendTime(fromText, tz);
  const to = readSendTime(toText, tz);
  if (!from) errors['date-from'] = 'date-from must be a date and time, e.g. 2026-11-01 00:00:00 (or a date).';
  if (!to) errors['date-to'] = 'date-to must be a date and time, e.g. 2026-11-08 00:00:00 (or a date: its whole day).';
  if (!from || !to) return null;
  // A date alone ends with its day.
  const end = to.wholeDay ? to.to + 1 : to.at;
  if (end <= from.at) errors['date-to'] = 'The end (date-to) must be later than the start (date-from).';
  return { from: from.at, to: end };
}

function readExpected(fields: Fields, errors: FieldErrors): Expected {
  const countText = fields.get('expected-count')?.trim() ?? '';
  const costText = fields.get('expected-cost')?.trim() ?? '';
  const currencyText = fields.get('currency')?.trim().toUpperCase() ?? '';
  let count: number | null = null;
  if (countText !== '') {
    if (/^\d{1,9}$/.test(countText.replace(/,/g, ''))) count = Number(countText.replace(/,/g, ''));
    else errors['expected-count'] = 'expected-count must be a whole number of messages, e.g. 10000.';
  }
  let cost: string | null = null;
  if (costText !== '') {
    const read = readCost(costText);
    if (read === 'bad' || read === null)
      errors['expected-cost'] = 'expected-cost must be an amount, e.g. 33000 or 3.30.';
    else cost = read;
  }
  if (currencyText !== '' && !/^[A-Z]{3}$/.test(currencyText))
    errors.currency = 'currency must be a three-letter code, e.g. JPY.';
  return { count, cost, currency: currencyText === '' || errors.currency ? null : currencyText };
}

function readKind(raw: string | undefined, errors: FieldErrors, required: boolean): ReconcileKind | undefined {
  const kind = raw?.trim();
  if (!kind) {
    if (required) errors.kind = `kind is required: one of ${RECONCILE_KINDS.join(', ')}.`;
    return undefined;
  }
  if ((RECONCILE_KINDS as readonly string[]).includes(kind)) return kind as ReconcileKind;
  errors.kind = `kind must be one of ${RECONCILE_KINDS.join(', ')}; got "${kind.slice(0, 30)}".`;
  return undefined;
}

async function fromForm(req: Request, type: string): Promise<ReconcileInput> {
  const bytes = await readBodyWithLimit(req, UPLOAD_LIMIT_BYTES, WHAT_TO_SEND);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest({ body: 'The body is not readable multipart/form-data: send the list as the `file` part.' });
  }
  const fields: Fields = {
    get: (name) => {
      const v = form.get(name);
      return typeof v === 'string' ? v : undefined;
    },
  };
  const errors: FieldErrors = {};
  const tz = parseZone(fields.get('tz') ?? null, errors);
  const kind = readKind(fields.get('kind'), errors, false);
  const range = readRange(fields, tz, errors);
  const expected = readExpected(fields, errors);
  const file = form.get('file');
  if (!(file instanceof Blob)) errors.file = 'Attach the list as the `file` part (a CSV, or lines pasted as a file).';
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const text = decodeUpload(new Uint8Array(await (file as Blob).arrayBuffer()));
  const reading = parseListText(text, {
    kind,
    column: fields.get('column'),
    timeColumn: fields.get('time-column'),
    costColumn: fields.get('cost-column'),
    tz,
  });
  if (!reading.ok) throw badRequest(reading.errors);
  const name = file instanceof File && file.name !== '' && file.name !== 'blob' ? file.name : null;
  return { list: reading.list, source: name, tz, range, expected };
}

async function fromJson(req: Request): Promise<ReconcileInput> {
  const body = await readJsonBody(req, UPLOAD_LIMIT_BYTES, WHAT_TO_SEND, EXAMPLE);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest({ body: `The body must be a JSON object, e.g. ${EXAMPLE}.` });
  const o = body as Record<string, unknown>;
  const fields: Fields = {
    get: (name) => (typeof o[name] === 'string' || typeof o[name] === 'number' ? String(o[name]) : undefined),
  };
  const errors: FieldErrors = {};
  const tz = parseZone(fields.get('tz') ?? null, errors);
  const kind = readKind(fields.get('kind'), errors, true);
  const range = readRange(fields, tz, errors);
  const expected = readExpected(fields, errors);
  if (!Array.isArray(o.values)) errors.values = 'values must be a list of trx_ids, references or numbers.';
  if (Object.keys(errors).length > 0 || !kind) throw badRequest(errors);
  const reading = parseListValues(o.values as unknown[], kind, tz);
  if (!reading.ok) throw badRequest(reading.errors);
  return { list: reading.list, source: null, tz, range, expected };
}

export async function readReconcileRequest(req: Request): Promise<ReconcileInput> {
  const type = req.headers.get('content-type') ?? '';
  const media = type.split(';')[0]!.trim().toLowerCase();
  if (media === 'multipart/form-data') return fromForm(req, type);
  if (media === '' || media === 'application/json' || media.endsWith('+json')) return fromJson(req);
  throw new ProblemError(
    {
      type: '/problems/unsupported-media-type',
      title: 'The body must be a form with the list, or JSON',
      status: 415,
      detail: `This endpoint reads multipart/form-data (the list as \`file\`) or JSON, not ${media.slice(0, 60)}. Nothing was done.`,
    },
    { Accept: 'multipart/form-data, application/json' },
  );
}

/** The create route's reader (withAccount `query`): a refusal is thrown as its problem (400, 413, 415). */
export async function reconcileRequestOf(req: Request): Promise<ParseResult<ReconcileInput>> {
  return { ok: true, query: await readReconcileRequest(req) };
}
