/**
 * The one definition of a CDR's fields (seed §2.2). Everything that lists fields — the zod schema,
 * the table's columns, the filters and their inputs, the drawer's sections, the CSV columns, log
 * redaction — is derived from this array, so adding or renaming a field is a change here.
 *
 * Safe to import from the browser: it holds no secrets.
 */
import { DELIVERY_METHODS } from './delivery-methods';
import { KNOWN_NETWORKS } from './networks';
import { DELIVERY_STATUSES, DELIVERY_STATUS_VALUES } from './status';

export type FieldKind =
  | 'text'
  | 'id' // copyable identifier (trx_id, api_key, …)
  | 'timestamp'
  | 'status'
  | 'price'
  | 'integer'
  | 'boolean'
  | 'phone'
  | 'body';

export type FieldGroup = 'message' | 'submission' | 'network' | 'delivery' | 'price';

export interface FilterChoice {
  readonly value: string;
  readonly label: string;
}

/**
 * A query parameter that narrows the records on this field. `upstream` filters are the seed's own
 * (§4.1): the Report API applies them, and the local history applies them the same way. `local`
 * filters exist only where the dashboard holds the records itself (the local history).
 */
export interface FilterSpec {
  readonly param: string;
  readonly source: 'upstream' | 'local';
  /** exact: equal to the value (the upstream's semantics); suffix: ends with it; min/max: numeric bounds. */
  readonly match: 'exact' | 'suffix' | 'min' | 'max';
  /** The form's label when it is not the field's own (e.g. "To (ends with)"). */
  readonly label?: string;
  readonly maxLength: number;
  readonly pattern: RegExp;
  /** The form `pattern` checks when the value is matched in another (free text, folded: ㈱ is the three characters of (株)). */
  readonly checkedAs?: (value: string) => string;
  /** What a valid value looks like, said to the person who typed an invalid one. */
  readonly hint: string;
  /** How the form asks for it: a select of `choices`, or a text box (suggesting `choices`, if any). */
  readonly input: 'text' | 'numeric' | 'decimal' | 'select';
  readonly placeholder?: string;
  readonly choices?: readonly FilterChoice[];
  /** How a typed value is written before it is checked and sent (a phone number pasted as "+81 90-1234-5678"). */
  readonly normalise?: (value: string) => string;
}

/**
 * Digits only: a pasted number keeps its "+", spaces, hyphens, dots or brackets; sent as typed, it
 * would match nothing (and cost a call). Enough for the last digits of a number.
 */
const phoneDigits = (value: string) => value.replace(/[\s().-]/g, '').replace(/^\+/, '');

/**
 * A whole phone number as the records write it (E.164 without the "+": 819012345678), from the
 * ways people write it: "+81 90-1234-5678", "+81 (0)90-1234-5678" (the trunk 0 in brackets),
 * "0081 90 1234 5678" (the international prefix) and, this being a Japanese platform, the domestic
 * "090-1234-5678" (a leading 0 and 9 or 10 more digits: Japan's trunk prefix, so country code 81).
 */
function phoneNumber(value: string): string {
  const digits = phoneDigits(value.replace(/\(0\)/g, ''));
  if (/^00[1-9]/.test(digits)) return digits.slice(2);
  if (/^0[1-9]\d{8,9}$/.test(digits)) return `81${digits.slice(1)}`;
  return digits;
}

export interface FieldDef {
  readonly key: string;
  readonly label: string;
  /** How the dashboard shows and sorts the value (an `integer` as a number, whether sent as one or as digits). */
  readonly kind: FieldKind;
  /**
   * How the upstream sends the value, where it is not a string (seed §2.2: "all values appear as
   * strings, except where a type is stated"): read as a number (lib/cdr/schema.ts), null when absent.
   */
  readonly sent?: 'integer';
  readonly group: FieldGroup;
  /** Shown in the table until the user changes the column set. */
  readonly defaultVisible?: boolean;
  readonly filters?: readonly FilterSpec[];
  /** Searched by the free-text filter `q` of the local history. */
  readonly searchable?: boolean;
  /**
   * Personal or confidential data: never written to a log line. Phone numbers and message text
   * are the obvious ones; user e-mails too.
   */
  readonly sensitive?: boolean;
  readonly description: string;
}

const KEY_LIKE = /^[A-Za-z0-9._-]+$/;
const KEY_HINT = 'letters, digits, ".", "_" or "-", up to 64';

export const CDR_FIELDS = [
  // The default columns come first, in the order a support person scans them.
  {
    key: 'date_received',
    label: 'Received',
    kind: 'timestamp',
    group: 'submission',
    defaultVisible: true,
    description: 'When the platform received the message.',
  },
  {
    key: 'trx_id',
    label: 'Transaction ID',
    kind: 'id',
    group: 'submission',
    defaultVisible: true,
    searchable: true,
    description: 'Unique transaction identifier.',
  },
  {
    key: 'to_address',
    label: 'To',
    kind: 'phone',
    group: 'message',
    defaultVisible: true,
    sensitive: true,
    searchable: true,
    description: 'Recipient phone number (destination address).',
    filters: [
      {
        param: 'da',
        source: 'upstream',
        match: 'exact',
        maxLength: 15,
        pattern: /^\d{6,15}$/,
        hint: 'a phone number of 6 to 15 digits, country code first, e.g. 819012345678 (090-1234-5678 and +81 90-1234-5678 are read as that)',
        input: 'numeric',
        placeholder: '819012345678',
        normalise: phoneNumber,
      },
      {
        param: 'da-suffix',
        source: 'local',
        match: 'suffix',
        label: 'To (ends with)',
        maxLength: 15,
        pattern: /^\d{1,15}$/,
        hint: 'the last digits of a phone number, e.g. 5678',
        input: 'numeric',
        placeholder: '5678',
        normalise: phoneDigits,
      },
    ],
  },
  {
    key: 'from_address',
    label: 'From',
    kind: 'text',
    group: 'message',
    defaultVisible: true,
    searchable: true,
    description: 'Sender ID or originating address.',
    filters: [
      {
        param: 'oa',
        source: 'upstream',
        match: 'exact',
        maxLength: 20,
        pattern: /^[\p{L}\p{N} ._+-]+$/u,
        hint: 'a sender ID of up to 20 letters, digits, spaces or ".", "_", "+", "-"',
        input: 'text',
      },
    ],
  },
  {
    key: 'network_name',
    label: 'Network',
    kind: 'text',
    group: 'network',
    defaultVisible: true,
    description: 'Mobile network operator.',
  },
  {
    key: 'delivery_status',
    label: 'Status',
    kind: 'status',
    group: 'delivery',
    defaultVisible: true,
    description: 'Delivery status (SMPP message state).',
    filters: [
      {
        param: 'status',
        source: 'upstream',
        match: 'exact',
        maxLength: 7,
        pattern: new RegExp(`^(${DELIVERY_STATUS_VALUES.join('|')})$`),
        hint: `one of ${DELIVERY_STATUS_VALUES.join(', ')}`,
        input: 'select',
        placeholder: 'Any status',
        choices: DELIVERY_STATUSES.map((s) => ({
          value: s.value,
          label: `${s.value} · ${s.label}${s.final ? '' : ' (in transit)'}`,
        })),
      },
    ],
  },
  {
    key: 'delivery_method',
    label: 'Method',
    kind: 'text',
    group: 'submission',
    defaultVisible: true,
    description: 'How the message was sent: Dashboard, Campaign or API.',
    filters: [
      {
        param: 'delivery-method',
        source: 'local',
        match: 'exact',
        maxLength: 20,
        pattern: new RegExp(`^(${DELIVERY_METHODS.join('|')})$`),
        hint: `one of ${DELIVERY_METHODS.join(', ')}`,
        input: 'select',
        placeholder: 'Any method',
        choices: DELIVERY_METHODS.map((m) => ({ value: m, label: m })),
      },
    ],
  },
  {
    key: 'how_many_message_parts',
    label: 'Parts',
    kind: 'integer',
    sent: 'integer',
    group: 'message',
    defaultVisible: true,
    description: 'Number of parts of a concatenated message.',
    filters: [
      {
        param: 'parts',
        source: 'local',
        match: 'exact',
        maxLength: 3,
        pattern: /^[1-9]\d{0,2}$/,
        hint: 'a whole number of parts, e.g. 2',
        input: 'numeric',
        placeholder: 'Any',
      },
    ],
  },
  {
    key: 'price',
    label: 'Price',
    kind: 'price',
    group: 'price',
    defaultVisible: true,
    description: 'Cost of the message.',
    filters: [
      {
        param: 'price-min',
        source: 'local',
        match: 'min',
        label: 'Price from',
        maxLength: 20,
        pattern: /^\d{1,10}(\.\d{1,8})?$/,
        hint: 'a price such as 3.30 (up to 8 decimals)',
        input: 'decimal',
        placeholder: '0',
      },
      {
        param: 'price-max',
        source: 'local',
        match: 'max',
        label: 'Price up to',
        maxLength: 20,
        pattern: /^\d{1,10}(\.\d{1,8})?$/,
        hint: 'a price such as 3.30 (up to 8 decimals)',
        input: 'decimal',
        placeholder: 'Any',
      },
    ],
  },
  {
    key: 'ref',
    label: 'Client ref',
    kind: 'id',
    group: 'submission',
    defaultVisible: true,
    searchable: true,
    description: 'Client reference.',
    filters: [
      {
        param: 'client-reference',
        source: 'upstream',
        match: 'exact',
        maxLength: 100,
        pattern: /^[^\p{Cc}]+$/u,
        hint: 'up to 100 characters, no control characters',
        input: 'text',
      },
    ],
  },
  // Everything else, grouped as the drawer shows it.
  {
    key: 'type',
    label: 'Type',
    kind: 'text',
    group: 'message',
    description: 'Message type; MT for mobile-terminated.',
  },
  {
    key: 'message_body',
    label: 'Message',
    kind: 'body',
    group: 'message',
    sensitive: true,
    searchable: true,
    description: 'The text sent (present only when requested).',
  },
  {
    key: 'msg_encrypted',
    label: 'Encrypted',
    kind: 'boolean',
    group: 'message',
    description: 'Whether the message is encrypted.',
  },
  {
    key: 'unencrypted_message_body',
    label: 'Decrypted message',
    kind: 'body',
    group: 'message',
    sensitive: true,
    searchable: true,
    description: 'The decrypted text of an encrypted message.',
  },
  {
    key: 'message_length',
    label: 'Length',
    // Shown and sorted as a number; the seed types it "string (numeric)", so it is read as text.
    kind: 'integer',
    group: 'message',
    description: 'Length of the message in characters.',
  },
  {
    key: 'dcs',
    label: 'DCS',
    kind: 'text',
    group: 'message',
    description: 'Data Coding Scheme (0 GSM 7-bit, 8 UCS-2).',
  },
  {
    key: 'date_submitted_to_mno',
    label: 'Submitted to MNO',
    kind: 'timestamp',
    group: 'submission',
    description: 'When the message was handed to the network operator.',
  },
  {
    key: 'api_key',
    label: 'API key',
    kind: 'id',
    group: 'submission',
    description: 'API key used for the transaction.',
    filters: [
      {
        param: 'api-key',
        source: 'upstream',
        match: 'exact',
        maxLength: 64,
        pattern: KEY_LIKE,
        hint: KEY_HINT,
        input: 'text',
      },
    ],
  },
  {
    key: 'api_key_name',
    label: 'API key name',
    kind: 'text',
    group: 'submission',
    description: 'Name of that API key.',
    filters: [
      {
        param: 'api-key-name',
        source: 'local',
        match: 'exact',
        maxLength: 100,
        pattern: /^[^\p{Cc}]+$/u,
        hint: 'up to 100 characters, no control characters',
        input: 'text',
      },
    ],
  },
  {
    key: 'enterprise_id',
    label: 'Enterprise',
    kind: 'id',
    group: 'submission',
    description: 'Enterprise identifier.',
    filters: [
      {
        param: 'enterprise-id',
        source: 'upstream',
        match: 'exact',
        maxLength: 64,
        pattern: KEY_LIKE,
        hint: KEY_HINT,
        input: 'text',
      },
    ],
  },
  { key: 'entity_id', label: 'Entity', kind: 'id', group: 'submission', description: 'Entity identifier.' },
  {
    key: 'submitted_by_user_id',
    label: 'User ID',
    kind: 'id',
    group: 'submission',
    description: 'Id of the user who submitted the message.',
  },
  {
    key: 'submitted_by_user_name',
    label: 'User',
    kind: 'text',
    group: 'submission',
    description: 'Name of that user.',
  },
  {
    key: 'submitted_by_user_email',
    label: 'User e-mail',
    kind: 'text',
    group: 'submission',
    sensitive: true,
    description: 'E-mail of that user.',
  },
  {
    key: 'submitted_by_admin_user_id',
    label: 'Admin user ID',
    kind: 'id',
    group: 'submission',
    description: 'Admin user id, where applicable.',
  },
  {
    key: 'executed_by',
    label: 'Executed by',
    kind: 'text',
    group: 'submission',
    description: 'Who executed the message.',
  },
  {
    key: 'bulk_campaign_id',
    label: 'Campaign',
    kind: 'id',
    group: 'submission',
    description: 'Campaign id when sent via a campaign.',
  },
  {
    key: 'network_code',
    label: 'Network code',
    kind: 'id',
    group: 'network',
    description: 'Mobile network operator code (MCC+MNC).',
    filters: [
      {
        param: 'network',
        source: 'upstream',
        match: 'exact',
        maxLength: 6,
        pattern: /^\d{5,6}$/,
        hint: 'a network code of 5 or 6 digits (MCC+MNC), e.g. 44010',
        input: 'numeric',
        placeholder: '44010',
        choices: KNOWN_NETWORKS.map((n) => ({ value: n.code, label: n.name })),
      },
    ],
  },
  {
    key: 'date_delivered',
    label: 'Delivered',
    kind: 'timestamp',
    group: 'delivery',
    description: 'When the message was delivered.',
  },
  {
    key: 'dlr_error_code',
    label: 'DLR error code',
    kind: 'text',
    group: 'delivery',
    description: 'Delivery-receipt error code.',
    filters: [
      {
        param: 'dlr-error-code',
        source: 'local',
        match: 'exact',
        maxLength: 10,
        pattern: /^[A-Za-z0-9]{1,10}$/,
        hint: 'a delivery-receipt code such as 001 or 27',
        input: 'text',
        placeholder: 'Any',
      },
    ],
  },
  { key: 'dlr_reason', label: 'DLR reason', kind: 'text', group: 'delivery', description: 'Delivery-receipt reason.' },
  { key: 'price_currency', label: 'Currency', kind: 'text', group: 'price', description: 'Currency of the price.' },
] as const satisfies readonly FieldDef[];

export type CdrFieldKey = (typeof CDR_FIELDS)[number]['key'];
export type CdrFieldDef = (typeof CDR_FIELDS)[number];
/** A field of the list, its key typed: what components and helpers take. */
export type Field = FieldDef & { readonly key: CdrFieldKey };

export const FIELDS: readonly Field[] = CDR_FIELDS;
export const FIELD_BY_KEY: ReadonlyMap<string, Field> = new Map(FIELDS.map((f) => [f.key, f]));

export function isFieldKey(value: string): value is CdrFieldKey {
  return FIELD_BY_KEY.has(value);
}

export const FIELD_GROUPS: readonly { group: FieldGroup; label: string }[] = [
  { group: 'message', label: 'Message' },
  { group: 'submission', label: 'Submission' },
  { group: 'network', label: 'Network' },
  { group: 'delivery', label: 'Delivery' },
  { group: 'price', label: 'Price' },
];

const keysWhere = (test: (f: FieldDef) => boolean): readonly CdrFieldKey[] =>
  CDR_FIELDS.filter((f) => test(f)).map((f) => f.key);

export const DEFAULT_VISIBLE_COLUMNS = keysWhere((f) => f.defaultVisible === true);
export const TIMESTAMP_FIELDS = keysWhere((f) => f.kind === 'timestamp');
/** The fields the upstream sends as JSON integers, read as numbers (lib/cdr/schema.ts). */
export const INTEGER_FIELDS = keysWhere((f) => f.sent === 'integer');
/** Their keys, as a type. */
export type IntegerField = Extract<CdrFieldDef, { readonly sent: 'integer' }>['key'];
export const SENSITIVE_FIELDS = keysWhere((f) => f.sensitive === true);
export const SEARCHABLE_FIELDS = keysWhere((f) => f.searchable === true);
