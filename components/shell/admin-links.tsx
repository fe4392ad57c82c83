/** The header's links to the admin pages (team mode, admins only). */
import { getTranslations } from 'next-intl/server';
import { PAGE_PATHS } from '@/lib/http/paths';
import { NavLink } from './nav-link';

export async function AdminLinks() {
  const t = await getTranslations('team.header');
  return (
    <>
      <NavLink href={PAGE_PATHS.adminPeople}>{t('people')}</NavLink>
      <NavLink href={PAGE_PATHS.adminAccounts}>{t('accounts')}</NavLink>
      <NavLink href={PAGE_PATHS.adminAudit}>{t('audit')}</NavLink>
    </>
  );
}
