/**
 * A page the person's role may not open (a viewer's Transactions, a support person's admin pages):
 * what it needs and the role they have, where their role comes from, and where they can go. The API
 * behind it refuses the same (403, /problems/role-needed): this only says so in words.
 */
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PAGE_PATHS } from '@/lib/http/paths';
import type { Role } from '@/lib/team';
import styles from './team.module.css';

export type GatedPage = 'transactions' | 'exports' | 'history' | 'admin';

export async function RoleNeeded({ page, needed, yours }: { page: GatedPage; needed: Role; yours: Role }) {
  const t = await getTranslations('team');
  return (
    <section className={`panel ${styles.dialog}`} aria-labelledby="role-needed-title" data-testid="role-needed">
      <h1 id="role-needed-title" className={styles.dialogTitle}>
        {t('roleNeeded.title')}
      </h1>
      <p>
        {t('roleNeeded.detail', {
          what: t(`roleNeeded.${page}`),
          needed: t(`roles.${needed}`),
          yours: t(`roles.${yours}`),
        })}
      </p>
      <p>
        <Link href={PAGE_PATHS.insights}>{t('roleNeeded.insights')}</Link>
      </p>
    </section>
  );
}
