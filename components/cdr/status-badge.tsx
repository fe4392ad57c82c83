import { statusInfo } from '@/lib/cdr/status';
import { EMPTY } from '@/lib/i18n/format';
import { statusSentence } from '@/lib/cdr/cdr-view';
import styles from './status-badge.module.css';

/**
 * A delivery status as a coloured badge: a filled dot for a final state, a ring for one still in
 * transit. Its tooltip (and its hidden text, for screen readers) says what it means.
 */
export function StatusBadge({ value }: { value: string }) {
  if (value.trim() === '') return <span className={styles.none}>{EMPTY}</span>;
  const info = statusInfo(value);
  const tone = info?.tone ?? 'neutral';
  return (
    <span
      className={styles.badge}
      data-tone={tone}
      data-final={info?.final ?? true}
      title={`${info?.label ?? value}. ${statusSentence(value)}`}
    >
      <span className={styles.dot} aria-hidden="true" />
      {value}
      <span className="visually-hidden">{info ? `: ${info.label}, ${info.final ? 'final' : 'in transit'}` : ''}</span>
    </span>
  );
}
