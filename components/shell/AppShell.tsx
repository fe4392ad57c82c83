/**
 * The frame of every signed-in page: skip link, header, main. Pages of other areas (exports) wrap
 * themselves in it too, so the header — quota, lookup, account — is the same everywhere.
 */
import type { ReactNode } from 'react';
import { AppHeader } from './AppHeader';
import styles from './AppShell.module.css';

export interface ShellAccount {
  apiKey: string;
  enterpriseId?: string;
}

export function AppShell({ account, children }: { account: ShellAccount; children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <AppHeader account={account} />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
