/**
 * The frame of every signed-in page, drawn once by the signed-in layout: skip link, header, main.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { ShellAccount } from './account';
import { AppHeader } from './app-header';
import styles from './app-shell.module.css';

export async function AppShell({ account, children }: { account: ShellAccount; children: ReactNode }) {
  const t = await getTranslations('shell');
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        {t('skipToContent')}
      </a>
      <AppHeader account={account} />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
