/** Said above the records of a role that sees them masked: what is hidden, and how to see one record whole. */
import { getTranslations } from 'next-intl/server';
import type { Role } from '@/lib/team';
import styles from './team.module.css';

export async function MaskedNote({ role }: { role: Role }) {
  const t = await getTranslations('team');
  return (
    <p className={styles.note} data-testid="masked-note">
      {t('masked.note', { role: t(`roles.${role}`) })}
    </p>
  );
}
