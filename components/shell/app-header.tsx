/**
 * The header: product name, navigation, the trx_id lookup, the quota meter, the language and the
 * account (in team mode, the person, their role and the team account; the admin pages' links).
 */
import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { ExportsBadge } from '../exports/exports-badge';
import { QuotaMeter } from '../quota/quota-meter';
import { TrxLookup } from '../lookup/trx-lookup';
import { LanguageSwitch } from './language-switch';
import { NavLink } from './nav-link';
import { SignOutButton, SignOutEverywhereButton } from './sign-out-button';
import { PAGE_PATHS } from '@/lib/http/paths';
import type { ShellAccount } from './account';
import { roleAtLeast } from '@/lib/team';
import { AdminLinks } from './admin-links';
import { PersonBadge } from '../team/person-badge-lazy';
import styles from './app-header.module.css';

export async function AppHeader({ account }: { account: ShellAccount }) {
  const t = await getTranslations('shell');
  const appName = (await getTranslations('common'))('appName');
  // What the role may open (lib/team/api.ts); the pages and the API refuse the rest themselves.
  const records = roleAtLeast(account.role, 'support');
  const admin = account.role === 'admin';
  const reconcile = await getTranslations('reconcile');
  return (
    <header className={styles.header}>
      <Link href={PAGE_PATHS.transactions} className={styles.brand}>
        <span className={styles.mark} aria-hidden="true" />
        {appName}
      </Link>
      <nav aria-label={t('mainNav')} className={styles.nav}>
        {records ? <NavLink href={PAGE_PATHS.transactions}>{t('nav.transactions')}</NavLink> : null}
        <NavLink href={PAGE_PATHS.insights}>{t('nav.insights')}</NavLink>
        {/* Exports area (components/exports): the page link and the badge of exports under way. */}
        {records ? <NavLink href={PAGE_PATHS.exports}>{t('nav.exports')}</NavLink> : null}
        {records ? <ExportsBadge /> : null}
        {records ? <NavLink href={PAGE_PATHS.reconcile}>{reconcile('nav')}</NavLink> : null}
        {admin ? <NavLink href={PAGE_PATHS.history}>{t('nav.history')}</NavLink> : null}
        {/* Team mode's admin pages (components/team). */}
        {admin && account.person ? <AdminLinks /> : null}
      </nav>
      {records ? (
        <div className={styles.lookup}>
          <TrxLookup />
        </div>
      ) : null}
      <div className={styles.end}>
        <QuotaMeter />
        <LanguageSwitch />
        {account.person ? (
          <PersonBadge name={account.person.name} role={account.role} account={account.person.account} />
        ) : (
          <div className={styles.account}>
            <span className={styles.accountName} title={t('account.apiKey')} translate="no">
              {account.apiKey}
            </span>
            {account.enterpriseId ? (
              <span className={styles.enterprise} title={t('account.enterprise')} translate="no">
                {account.enterpriseId}
              </span>
            ) : null}
          </div>
        )}
        <SignOutButton />
        <SignOutEverywhereButton />
      </div>
    </header>
  );
}
