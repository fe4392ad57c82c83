/**
 * The header: product name, navigation, the trx_id lookup, the quota meter and the account.
 */
import Link from 'next/link';
import { ExportsBadge } from '../exports/exports-badge';
import { QuotaMeter } from '../quota/quota-meter';
import { TrxLookup } from '../lookup/trx-lookup';
import { NavLink } from './nav-link';
import { SignOutButton, SignOutEverywhereButton } from './sign-out-button';
import { PAGE_PATHS } from '@/lib/http/paths';
import type { ShellAccount } from './account';
import styles from './app-header.module.css';

export function AppHeader({ account }: { account: ShellAccount }) {
  return (
    <header className={styles.header}>
      <Link href={PAGE_PATHS.transactions} className={styles.brand}>
        <span className={styles.mark} aria-hidden="true" />
        SMS history
      </Link>
      <nav aria-label="Main" className={styles.nav}>
        <NavLink href={PAGE_PATHS.transactions}>Transactions</NavLink>
        <NavLink href={PAGE_PATHS.insights}>Insights</NavLink>
        {/* Exports area (components/exports): the page link and the badge of exports under way. */}
        <NavLink href={PAGE_PATHS.exports}>Exports</NavLink>
        <ExportsBadge />
        <NavLink href={PAGE_PATHS.history}>History</NavLink>
      </nav>
      <div className={styles.lookup}>
        <TrxLookup />
      </div>
      <div className={styles.end}>
        <QuotaMeter />
        <div className={styles.account}>
          <span className={styles.accountName} title="Signed-in API key">
            {account.apiKey}
          </span>
          {account.enterpriseId ? (
            <span className={styles.enterprise} title="Enterprise">
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
