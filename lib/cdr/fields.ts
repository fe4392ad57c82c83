/**
 * The one definition of a CDR's fields (seed §2.2). Everything that lists fields — the zod schema,
 * the table's columns, the filters, the drawer's sections, the CSV columns, log redaction — is
 * derived from this array, so adding or renaming a field is a one-line change here.
 *
 * Safe to import from the browser: it holds no secrets.
 */

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

/** Query parameter of the seed that filters on this field, if any. */
export type FilterParam = 'api-key' | 'network' | 'client-reference' | 'da' | 'oa' | 'status' | 'enterprise-id';

export interface FieldDef {
  readonly key: string;
  readonly label: string;
  readonly kind: FieldKind;
  readonly group: FieldGroup;
  /** Shown in the table until the user changes the column set. */
  readonly defaultVisible?: boolean;
  readonly filter?: FilterParam;
  /**
   * Personal or confidential data: never written to a log line. Phone numbers and message text
   * are the obvious ones; user e-mails too.
   */
  readonly sensitive?: boolean;
  readonly description: string;
}

export const CDR_FIELDS = [
  // The default columns come first, in the order a support person scans them.
  { key: 'date_received', label: 'Received', kind: 'timestamp', group: 'submission', defaultVisible: true, description: 'When the platform received the message.' },
  { key: 'trx_id', label: 'Transaction ID', kind: 'id', group: 'submission', defaultVisible: true, description: 'Unique transaction identifier.' },
  { key: 'to_address', label: 'To', kind: 'phone', group: 'message', defaultVisible: true, filter: 'da', sensitive: true, description: 'Recipient phone number (destination address).' },
  { key: 'from_address', label: 'From', kind: 'text', group: 'message', defaultVisible: true, filter: 'oa', description: 'Sender ID or originating address.' },
  { key: 'network_name', label: 'Network', kind: 'text', group: 'network', defaultVisible: true, description: 'Mobile network operator.' },
  { key: 'delivery_status', label: 'Status', kind: 'status', group: 'delivery', defaultVisible: true, filter: 'status', description: 'Delivery status (SMPP message state).' },
  { key: 'delivery_method', label: 'Method', kind: 'text', group: 'submission', defaultVisible: true, description: 'How the message was sent: Dashboard, Campaign or API.' },
  { key: 'how_many_message_parts', label: 'Parts', kind: 'integer', group: 'message', defaultVisible: true, description: 'Number of parts of a concatenated message.' },
  { key: 'price', label: 'Price', kind: 'price', group: 'price', defaultVisible: true, description: 'Cost of the message.' },
  { key: 'ref', label: 'Client ref', kind: 'id', group: 'submission', defaultVisible: true, filter: 'client-reference', description: 'Client reference.' },
  // Everything else, grouped as the drawer shows it.
  { key: 'type', label: 'Type', kind: 'text', group: 'message', description: 'Message type; MT for mobile-terminated.' },
  { key: 'message_body', label: 'Message', kind: 'body', group: 'message', sensitive: true, description: 'The text sent (present only when requested).' },
  { key: 'msg_encrypted', label: 'Encrypted', kind: 'boolean', group: 'message', description: 'Whether the message is encrypted.' },
  { key: 'unencrypted_message_body', label: 'Decrypted message', kind: 'body', group: 'message', sensitive: true, description: 'The decrypted text of an encrypted message.' },
  { key: 'message_length', label: 'Length', kind: 'integer', group: 'message', description: 'Length of the message in characters.' },
  { key: 'dcs', label: 'DCS', kind: 'text', group: 'message', description: 'Data Coding Scheme (0 GSM 7-bit, 8 UCS-2).' },
  { key: 'date_submitted_to_mno', label: 'Submitted to MNO', kind: 'timestamp', group: 'submission', description: 'When the message was handed to the network operator.' },
  { key: 'api_key', label: 'API key', kind: 'id', group: 'submission', filter: 'api-key', description: 'API key used for the transaction.' },
  { key: 'api_key_name', label: 'API key name', kind: 'text', group: 'submission', description: 'Name of that API key.' },
  { key: 'enterprise_id', label: 'Enterprise', kind: 'id', group: 'submission', filter: 'enterprise-id', description: 'Enterprise identifier.' },
  { key: 'entity_id', label: 'Entity', kind: 'id', group: 'submission', description: 'Entity identifier.' },
  { key: 'submitted_by_user_id', label: 'User ID', kind: 'id', group: 'submission', description: 'Id of the user who submitted the message.' },
  { key: 'submitted_by_user_name', label: 'User', kind: 'text', group: 'submission', description: 'Name of that user.' },
  { key: 'submitted_by_user_email', label: 'User e-mail', kind: 'text', group: 'submission', sensitive: true, description: 'E-mail of that user.' },
  { key: 'submitted_by_admin_user_id', label: 'Admin user ID', kind: 'id', group: 'submission', description: 'Admin user id, where applicable.' },
  { key: 'executed_by', label: 'Executed by', kind: 'text', group: 'submission', description: 'Who executed the message.' },
  { key: 'bulk_campaign_id', label: 'Campaign', kind: 'id', group: 'submission', description: 'Campaign id when sent via a campaign.' },
  { key: 'network_code', label: 'Network code', kind: 'id', group: 'network', filter: 'network', description: 'Mobile network operator code (MCC+MNC).' },
  { key: 'date_delivered', label: 'Delivered', kind: 'timestamp', group: 'delivery', description: 'When the message was delivered.' },
  { key: 'dlr_error_code', label: 'DLR error code', kind: 'text', group: 'delivery', description: 'Delivery-receipt error code.' },
  { key: 'dlr_reason', label: 'DLR reason', kind: 'text', group: 'delivery', description: 'Delivery-receipt reason.' },
  { key: 'price_currency', label: 'Currency', kind: 'text', group: 'price', description: 'Currency of the price.' },
] as const satisfies readonly FieldDef[];

export type CdrFieldKey = (typeof CDR_FIELDS)[number]['key'];

export const FIELD_BY_KEY: ReadonlyMap<string, FieldDef> = new Map(CDR_FIELDS.map((f) => [f.key, f]));

export const FIELD_GROUPS: readonly { group: FieldGroup; label: string }[] = [
  { group: 'message', label: 'Message' },
  { group: 'submission', label: 'Submission' },
  { group: 'network', label: 'Network' },
  { group: 'delivery', label: 'Delivery' },
  { group: 'price', label: 'Price' },
];

export const DEFAULT_VISIBLE_COLUMNS: readonly CdrFieldKey[] = CDR_FIELDS.filter(
  (f): f is Extract<(typeof CDR_FIELDS)[number], { defaultVisible: true }> => 'defaultVisible' in f && f.defaultVisible === true,
).map((f) => f.key);

export const TIMESTAMP_FIELDS: readonly CdrFieldKey[] = CDR_FIELDS.filter((f) => f.kind === 'timestamp').map((f) => f.key);

export const SENSITIVE_FIELDS: readonly CdrFieldKey[] = CDR_FIELDS.filter((f) => 'sensitive' in f && f.sensitive === true).map(
  (f) => f.key,
);
