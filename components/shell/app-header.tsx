/**
 * The header: product name, navigation, the trx_id lookup, the quota meter, the language and the
 * account.
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
import styles from './app-header.module.css';

export async function AppHeader({ account }: { account: ShellAccount }) {
  const t = await getTranslations('shell');
  const appName = (await getTranslations('common'))('appName');
  const reconcile = await getTranslations('reconcile');
  return (
    <header className={styles.header}>
      <Link href={PAGE_PATHS.transactions} className={styles.brand}>
        <span className={styles.mark} aria-hidden="true" />
        {appName}
      </Link>
      <nav aria-label={t('mainNav')} className={styles.nav}>
        <NavLink href={PAGE_PATHS.transactions}>{t('nav.transactions')}</NavLink>
        <NavLink href={PAGE_PATHS.insights}>{t('nav.insights')}</NavLink>
        {/* Exports area (components/exports): the page link and the badge of exports under way. */}
        <NavLink href={PAGE_PATHS.exports}>{t('nav.exports')}</NavLink>
        <ExportsBadge />
        <NavLink href={PAGE_PATHS.history}>{t('nav.history')}</NavLink>
        <NavLink href={PAGE_PATHS.reconcile}>{reconcile('nav')}</NavLink>
      </nav>
      <div className={styles.lookup}>
        <TrxLookup />
      </div>
      <div className={styles.end}>
        <QuotaMeter />
        <LanguageSwitch />
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
        <SignOutButton />
        <SignOutEverywhereButton />
      </div>
    </header>
  );
}
