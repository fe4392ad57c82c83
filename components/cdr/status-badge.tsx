import { useTranslations } from 'next-intl';
import { statusInfo } from '@/lib/cdr/status';
import { EMPTY } from '@/lib/i18n/format';
import styles from './status-badge.module.css';

/**
 * A delivery status as a coloured badge: a filled dot for a final state, a ring for one still in
 * transit. The raw code is what it shows (the API's and the upstream's word, in both languages);
 * its tooltip (and its hidden text, for screen readers) names it and says what it means, in the
 * page's language (messages/<locale>/cdr.json).
 */
export function StatusBadge({ value }: { value: string }) {
  const t = useTranslations('cdr');
  if (value.trim() === '') return <span className={styles.none}>{EMPTY}</span>;
  const info = statusInfo(value);
  const tone = info?.tone ?? 'neutral';
  const title = info
    ? `${t(`status.${info.value}.label`)}. ${t(`status.${info.value}.meaning`)} ${info.final ? t('final') : t('inTransit')}`
    : t('statusUnknown', { value });
  return (
    <span className={styles.badge} data-tone={tone} data-final={info?.final ?? true} title={title}>
      <span className={styles.dot} aria-hidden="true" />
      {value}
      <span className="visually-hidden">
        {info ? `: ${t(`status.${info.value}.label`)}, ${info.final ? t('badgeFinal') : t('badgeInTransit')}` : ''}
      </span>
    </span>
  );
}
