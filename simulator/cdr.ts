/**
 * Turns one row of the columns into the CDR object the upstream returns (seed §2.2), as seen at a
 * given moment: a message whose delivery report is still in the future shows ENROUTE/ACCEPTD and no
 * date_delivered, so the same record changes as the clock advances — exactly what a client's cache
 * has to cope with.
 */
import { ENTERPRISES, SENDERS, SENDING_KEYS, USERS } from './accounts';
import type { CdrFieldKey } from '../lib/cdr/fields';
import { DELIVERY_STATUSES } from '../lib/cdr/status';
import { KNOWN_NETWORKS } from '../lib/cdr/networks';
import { DLR_ERRORS } from '../lib/cdr/dlr-errors';
import type { Zone } from '../lib/time/zones';
import { upstreamTimestamp } from './timestamps';
import {
  DLR_CODES,
  FLAG_ADMIN,
  FLAG_ENCRYPTED,
  METHODS,
  NOT_SUBMITTED,
  NO_USER,
  STATUS_INDEX,
  dayPosition,
  type Columns,
  type Generated,
} from './generate';
import { Rng, hash32 } from './rng';
import { smsEncoding } from './sms';
import { REF_PREFIXES, TEMPLATES } from './templates';
import { DAY_MS, jstDate } from './traffic';

export const DETAIL_PATH_PREFIX = '/cdr/v1/report/cdr/sms/transaction-history/mt/';

type StringField = Exclude<CdrFieldKey, 'how_many_message_parts' | 'message_body'>;

/** A CDR as the simulator sends it: strings everywhere except the part count (seed §2.2). */
export type SimCdr = { [K in StringField]: string } & {
  /** Left out unless bodies are included ("present only when explicitly requested"). */
  message_body?: string;
  how_many_message_parts: number;
  _links: { self: { href: string } };
};

const ENROUTE = STATUS_INDEX.ENROUTE;

/** The state of row i at `now` (index into DELIVERY_STATUSES). Kept branch-light: filters call it per row. */
export function statusAt(c: Columns, i: number, now: number): number {
  const t = c.received[i]!;
  if (now >= t + c.finalDelay[i]!) return c.finalStatus[i]!;
  const submit = c.submitDelay[i]!;
  return submit === NOT_SUBMITTED || now < t + submit ? ENROUTE : c.pendingStatus[i]!;
}

export function refString(c: Columns, i: number): string {
  const kind = c.refKind[i]!;
  return kind === 0 ? '' : formatRef(REF_PREFIXES[kind - 1]!, c.received[i]!, c.refNum[i]!);
}

/** `ORD-2026-0012345`: prefix, the JST year the message was sent, a 7-digit number. */
export function formatRef(prefix: string, receivedMs: number, num: number): string {
  return `${prefix}-${jstDate(receivedMs).year}-${String(num).padStart(7, '0')}`;
}

function dlrReason(code: string): string {
  if (code === '' || code === '000') return '';
  return (DLR_ERRORS[String(Number(code))]?.meaning ?? '').replace(/\.$/, '');
}

function formatPrice(sen: number): string {
  return `${Math.floor(sen / 100)}.${String(sen % 100).padStart(2, '0')}000000`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Fills a template's placeholders with values derived from the record, so the text never changes. */
function renderBody(text: string, c: Columns, i: number, key: number, prefix: string | null): string {
  const rng = new Rng(key);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    switch (name) {
      case 'ref':
        return prefix ? formatRef(prefix, c.received[i]!, c.refNum[i]!) : '';
      case 'otp':
        return String(rng.int(1_000_000)).padStart(6, '0');
      case 'date': {
        const d = jstDate(c.received[i]! + (1 + rng.int(3)) * DAY_MS);
        return `${d.month}/${d.day}`;
      }
      case 'short':
        return Array.from({ length: 6 }, () => BASE62[rng.int(62)]).join('');
      case 'amount': // 1,000 … 300,000 yen, in whole thousands
        return `${1 + rng.int(300)},000`;
      default:
        return '';
    }
  });
}

/** A stand-in ciphertext: 12 nonce bytes + the text XOR a keystream, base64 — opaque, like the real thing. */
function encrypt(text: string, key: number): string {
  const rng = new Rng(key ^ 0x5eed);
  const plain = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(12 + plain.length);
  for (let j = 0; j < 12; j++) out[j] = rng.int(256);
  for (let j = 0; j < plain.length; j++) out[12 + j] = plain[j]! ^ rng.int(256);
  return out.toString('base64');
}

export interface BuildOptions {
  tz: Zone;
  now: number;
  includeBodies: boolean;
  trxId: string;
}

export function buildCdr(g: Generated, i: number, o: BuildOptions): SimCdr {
  const c = g.columns;
  const { day, position } = dayPosition(g, i);
  const recordKey = hash32(g.seed, day, position, 0xb0d7);
  const t = c.received[i]!;
  const ts = (ms: number) => upstreamTimestamp(ms, o.tz);

  const enterprise = ENTERPRISES[c.enterprise[i]!]!;
  const key = SENDING_KEYS[c.sendingKey[i]!]!;
  const userIdx = c.user[i]!;
  const user = userIdx === NO_USER ? undefined : USERS[userIdx];
  const method = METHODS[c.method[i]!]!;
  const template = TEMPLATES[c.template[i]!]!;
  const network = KNOWN_NETWORKS[c.network[i]!]!;
  const campaignRow = c.campaign[i]!;

  const text = renderBody(template.text, c, i, recordKey, template.refPrefix);
  const encoding = smsEncoding(text);
  const encrypted = (c.flags[i]! & FLAG_ENCRYPTED) !== 0;

  const submit = c.submitDelay[i]!;
  const submitted = submit !== NOT_SUBMITTED;
  const finalKnown = o.now >= t + c.finalDelay[i]!;
  const status = statusAt(c, i, o.now);
  const dlrCode = finalKnown ? DLR_CODES[c.dlr[i]!]! : '';
  const perPart = enterprise.pricePerPartSen - (network.code === '44011' ? 22 : 0); // Rakuten Mobile is cheaper

  const cdr: SimCdr = {
    message_body: encrypted ? encrypt(text, recordKey) : text,
    msg_encrypted: encrypted ? 'true' : 'false',
    unencrypted_message_body: encrypted && o.includeBodies ? text : '',
    _links: { self: { href: DETAIL_PATH_PREFIX + o.trxId } },
    type: 'MT',
    trx_id: o.trxId,
    date_received: ts(t),
    date_submitted_to_mno: submitted && o.now >= t + submit ? ts(t + submit) : '',
    api_key: key.apiKey,
    api_key_name: key.name,
    enterprise_id: enterprise.id,
    entity_id: key.entityId,
    submitted_by_user_id: user?.id ?? '',
    submitted_by_user_name: user?.name ?? '',
    submitted_by_user_email: user?.email ?? '',
    submitted_by_admin_user_id: c.flags[i]! & FLAG_ADMIN ? enterprise.admin.id : '',
    executed_by:
      method === 'API' ? `api-key:${key.apiKey}` : method === 'Campaign' ? 'campaign-scheduler' : (user?.email ?? ''),
    bulk_campaign_id: campaignRow ? g.campaigns[campaignRow - 1]!.id : '',
    ref: refString(c, i),
    from_address: SENDERS[c.sender[i]!]!.sender,
    to_address: String(g.pool.number[c.recipient[i]!]),
    network_code: network.code,
    network_name: network.name,
    message_length: String(encoding.length),
    delivery_status: DELIVERY_STATUSES[status]!.value,
    date_delivered: finalKnown && status === STATUS_INDEX.DELIVRD ? ts(t + c.finalDelay[i]!) : '',
    dlr_error_code: dlrCode,
    dlr_reason: dlrReason(dlrCode),
    delivery_method: method,
    price: formatPrice(submitted ? encoding.parts * perPart : 0),
    price_currency: 'JPY',
    dcs: encoding.dcs,
    how_many_message_parts: encoding.parts,
  };
  if (!o.includeBodies) delete cdr.message_body;
  return cdr;
}
