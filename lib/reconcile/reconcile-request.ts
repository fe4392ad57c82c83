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
import { msg, type Words } from '../i18n/message';
import { parseZone } from '../query/query';
import type { Zone } from '../time/zones';
import { RECONCILE_KINDS, type ReconcileKind } from './api';
import { parseListText, parseListValues, readCost, type ParsedList } from './parse-list';
import { readSendTime } from './send-time';
import type { Expected } from './summary';

/** 100,000 rows of a send log with a few columns fit in far less. */
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
const WHAT_TO_SEND = msg('reconcile.problems.whatToSend');
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
/** What is wrong, per parameter, in the catalogue's words. */
type Problems = Record<string, Words>;

/** `tz` as every endpoint reads it (lib/query), its problem added to `errors`. */
function zoneOf(fields: Fields, errors: Problems): Zone {
  const said: Record<string, string> = {};
  const tz = parseZone(fields.get('tz') ?? null, said);
  Object.assign(errors, said);
  return tz;
}

function readRange(fields: Fields, tz: Zone, errors: Problems): ReconcileInput['range'] {
  const fromText = fields.get('date-from')?.trim() ?? '';
  const toText = fields.get('date-to')?.trim() ?? '';
  if (fromText === '' && toText === '') return null;
  const from = readSendTime(fromText, tz);
  const to = readSendTime(toText, tz);
  if (!from) errors['date-from'] = msg('reconcile.problems.dateFrom');
  if (!to) errors['date-to'] = msg('reconcile.problems.dateTo');
  if (!from || !to) return null;
  // A date alone ends with its day.
  const end = to.wholeDay ? to.to + 1 : to.at;
  if (end <= from.at) errors['date-to'] = msg('reconcile.problems.dateOrder');
  return { from: from.at, to: end };
}

function readExpected(fields: Fields, errors: Problems): Expected {
  const countText = fields.get('expected-count')?.trim() ?? '';
  const costText = fields.get('expected-cost')?.trim() ?? '';
  const currencyText = fields.get('currency')?.trim().toUpperCase() ?? '';
  let count: number | null = null;
  if (countText !== '') {
    if (/^\d{1,9}$/.test(countText.replace(/,/g, ''))) count = Number(countText.replace(/,/g, ''));
    else errors['expected-count'] = msg('reconcile.problems.expectedCount');
  }
  let cost: string | null = null;
  if (costText !== '') {
    const read = readCost(costText);
    if (read === 'bad' || read === null) errors['expected-cost'] = msg('reconcile.problems.expectedCost');
    else cost = read;
  }
  if (currencyText !== '' && !/^[A-Z]{3}$/.test(currencyText)) errors.currency = msg('reconcile.problems.currency');
  return { count, cost, currency: currencyText === '' || errors.currency ? null : currencyText };
}

function readKind(raw: string | undefined, errors: Problems, required: boolean): ReconcileKind | undefined {
  const kind = raw?.trim();
  if (!kind) {
    if (required) errors.kind = msg('reconcile.problems.kindRequired', { kinds: RECONCILE_KINDS.join(', ') });
    return undefined;
  }
  if ((RECONCILE_KINDS as readonly string[]).includes(kind)) return kind as ReconcileKind;
  errors.kind = msg('reconcile.problems.kindWrong', { kinds: RECONCILE_KINDS.join(', '), kind: kind.slice(0, 30) });
  return undefined;
}

async function fromForm(req: Request, type: string): Promise<ReconcileInput> {
  const bytes = await readBodyWithLimit(req, UPLOAD_LIMIT_BYTES, WHAT_TO_SEND);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest({ body: msg('reconcile.problems.notAForm') });
  }
  const fields: Fields = {
    get: (name) => {
      const v = form.get(name);
      return typeof v === 'string' ? v : undefined;
    },
  };
  const errors: Problems = {};
  const tz = zoneOf(fields, errors);
  const kind = readKind(fields.get('kind'), errors, false);
  const range = readRange(fields, tz, errors);
  const expected = readExpected(fields, errors);
  const file = form.get('file');
  if (!(file instanceof Blob)) errors.file = msg('reconcile.problems.fileMissing');
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
    throw badRequest({ body: msg('reconcile.problems.notAnObject', { example: EXAMPLE }) });
  const o = body as Record<string, unknown>;
  const fields: Fields = {
    get: (name) => (typeof o[name] === 'string' || typeof o[name] === 'number' ? String(o[name]) : undefined),
  };
  const errors: Problems = {};
  const tz = zoneOf(fields, errors);
  const kind = readKind(fields.get('kind'), errors, true);
  const range = readRange(fields, tz, errors);
  const expected = readExpected(fields, errors);
  if (!Array.isArray(o.values)) errors.values = msg('reconcile.problems.valuesMissing');
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
      title: msg('reconcile.problems.unsupportedMedia.title'),
      status: 415,
      detail: msg('reconcile.problems.unsupportedMedia.detail', { type: media.slice(0, 60) }),
    },
    { Accept: 'multipart/form-data, application/json' },
  );
}
