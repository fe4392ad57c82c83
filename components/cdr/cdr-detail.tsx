/**
 * Everything about one CDR, grouped as FIELD_GROUPS says, with the facts a support person would
 * otherwise work out by hand: the status and the DLR error explained, the delivery latency, each
 * timestamp in both zones, the decrypted text of an encrypted message. Used by the drawer and by
 * the standalone /transactions/<trx_id> page; it takes only a record and the schema.
 */
import { CDR_FIELDS, FIELD_GROUPS, type Field, type FieldGroup } from '@/lib/cdr/fields';
import { isEncrypted } from '@/lib/cdr/record-columns';
import { exactFilterFor, type FilterParam } from '@/lib/query/filters';
import { ZONES, type Zone } from '@/lib/time/zones';
import { useTranslations } from 'next-intl';
import { deliveryLatencyMs, fieldText, type RecordLike } from '@/lib/cdr/cdr-view';
import { EMPTY } from '@/lib/i18n/format';
import { useFormat } from '@/lib/i18n/use-format';
import { useCdrSentences } from './use-cdr-sentences';
import { isMaskedValue } from '@/lib/team';
import { StatusBadge } from './status-badge';
import { FieldValue } from './field-value';
import type { ReactNode } from 'react';
import styles from './cdr-detail.module.css';

export interface CdrDetailProps {
  record: RecordLike;
  zone: Zone;
  /** Offered on fields that have a filter (CDR_FIELDS `filter`); absent where filtering makes no sense. */
  onFilter?: (param: FilterParam, value: string, field: Field) => void;
  /** Heading level of the section titles, so the component fits a drawer and a page alike. */
  headingLevel?: 2 | 3;
}

const FIELDS_BY_GROUP = new Map<FieldGroup, readonly Field[]>(
  FIELD_GROUPS.map(({ group }) => [group, CDR_FIELDS.filter((f) => f.group === group)]),
);

function TimestampBoth({ value, zone }: { value: string; zone: Zone }) {
  const f = useFormat();
  if (value.trim() === '') return <span className={styles.faint}>{EMPTY}</span>;
  const other = ZONES.find((z) => z !== zone)!;
  return (
    <span className={styles.stack}>
      <span className={styles.nowrap}>
        {f.timestamp(value, zone, true)} <span className={styles.zone}>{zone}</span>
      </span>
      <span className={`${styles.nowrap} ${styles.faint}`}>
        {f.timestamp(value, other, true)} <span className={styles.zone}>{other}</span>
      </span>
    </span>
  );
}

function FieldRow({
  field,
  record,
  zone,
  onFilter,
}: {
  field: Field;
  record: RecordLike;
  zone: Zone;
  onFilter: CdrDetailProps['onFilter'];
}) {
  const t = useTranslations('detail');
  const tf = useTranslations('fields.field');
  const sentences = useCdrSentences();
  const label = tf(`${field.key}.label`);
  const value = fieldText(record, field.key);
  let shown: ReactNode;
  let note: string | null = null;
  if (field.kind === 'timestamp') shown = <TimestampBoth value={value} zone={zone} />;
  else shown = <FieldValue field={field} record={record} zone={zone} />;
  if (field.kind === 'status' && value !== '') note = sentences.status(value);
  if (field.key === 'dlr_error_code') note = sentences.dlr(value);
  if (field.key === 'message_body' && value !== '' && isEncrypted(record)) note = t('encryptedNote');

  const filter = exactFilterFor(field.key)?.param;
  return (
    <div className={styles.row} data-field={field.key}>
      <dt className={styles.label} title={tf(`${field.key}.description`)}>
        {label}
      </dt>
      <dd className={styles.value}>
        <span className={styles.valueLine}>
          {shown}
          {filter && onFilter && value.trim() !== '' && !isMaskedValue(value) ? (
            <button
              type="button"
              className={`button button-small button-ghost ${styles.filter}`}
              onClick={() => onFilter(filter, value, field)}
              aria-label={t('filterByLabel', { label, value })}
            >
              {t('filterBy')}
            </button>
          ) : null}
        </span>
        {note ? <span className={styles.note}>{note}</span> : null}
      </dd>
    </div>
  );
}

export function CdrDetail({ record, zone, onFilter, headingLevel = 3 }: CdrDetailProps) {
  const Heading = `h${headingLevel}` as 'h2' | 'h3';
  const t = useTranslations('detail');
  const tf = useTranslations('fields.group');
  const f = useFormat();
  const sentences = useCdrSentences();
  const status = fieldText(record, 'delivery_status');
  const latency = deliveryLatencyMs(record);
  const encrypted = isEncrypted(record);
  const decrypted = fieldText(record, 'unencrypted_message_body');

  return (
    <div className={styles.detail}>
      <div className={styles.summary}>
        <StatusBadge value={status} />
        <span className={styles.summaryText}>{status ? sentences.status(status) : t('noStatus')}</span>
        <span className={styles.latency} data-testid="latency">
          {t('latency')} <strong>{latency === null ? t('notDelivered') : f.duration(latency)}</strong>
        </span>
      </div>

      {encrypted && decrypted.trim() !== '' ? (
        <figure className={styles.message}>
          <figcaption>{t('decrypted')}</figcaption>
          <blockquote>{decrypted}</blockquote>
        </figure>
      ) : null}

      {FIELD_GROUPS.map(({ group }) => (
        <section key={group} className={styles.section} aria-labelledby={`cdr-group-${group}`}>
          <Heading id={`cdr-group-${group}`} className={styles.heading}>
            {tf(group)}
          </Heading>
          <dl className={styles.list}>
            {(FIELDS_BY_GROUP.get(group) ?? []).map((field) => (
              <FieldRow key={field.key} field={field} record={record} zone={zone} onFilter={onFilter} />
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
