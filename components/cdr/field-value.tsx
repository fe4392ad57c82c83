/**
 * One field of a CDR rendered by its kind (lib/cdr/fields.ts): the table's cells and the drawer's
 * rows both come through here, so a timestamp or a price reads the same everywhere.
 */
import type { Field } from '@/lib/cdr/fields';
import type { Zone } from '@/lib/time/zones';
import { fieldText, type RecordLike } from '@/lib/cdr/record-text';
import { useTranslations } from 'next-intl';
import { displayText, EMPTY } from '@/lib/i18n/format';
import { useFormat } from '@/lib/i18n/use-format';
import { CopyButton } from '../common/copy-button';
import { StatusBadge } from './status-badge';
import styles from './field-value.module.css';

/** Kinds whose values people copy into tickets and searches. */
const COPYABLE = new Set<Field['kind']>(['id', 'phone']);

/**
 * `inTable`: the copy buttons are mouse conveniences that keyboard users skip (one tab stop per row
 * is enough; the drawer, opened with Enter, has the same buttons in the tab order).
 */
export function FieldValue({
  field,
  record,
  zone,
  inTable = false,
}: {
  field: Field;
  record: RecordLike;
  zone: Zone;
  inTable?: boolean;
}) {
  const t = useTranslations('detail');
  const tf = useTranslations('fields.field');
  const f = useFormat();
  const value = fieldText(record, field.key);
  if (value.trim() === '' && field.kind !== 'status') {
    return (
      <span className={styles.empty} title={t('notProvided')}>
        {EMPTY}
      </span>
    );
  }
  switch (field.kind) {
    case 'timestamp':
      return <span className={styles.nowrap}>{f.timestamp(value, zone)}</span>;
    case 'status':
      return <StatusBadge value={value} />;
    case 'price':
      return <span className={styles.number}>{f.price(value, fieldText(record, 'price_currency'))}</span>;
    case 'integer':
      return <span className={styles.number}>{value}</span>;
    case 'boolean':
      return <span>{value === 'true' ? t('yes') : value === 'false' ? t('no') : value}</span>;
    case 'body':
      return <span className={styles.body}>{value}</span>;
    case 'id':
    case 'phone':
      return (
        <span className={styles.copyable}>
          <span className={`mono ${inTable ? styles.nowrap : styles.breakable}`}>{value}</span>
          {COPYABLE.has(field.kind) ? (
            <CopyButton value={value} label={tf(`${field.key}.label`)} tabbable={!inTable} />
          ) : null}
        </span>
      );
    default:
      return <span>{displayText(value)}</span>;
  }
}
