import type { Metadata } from 'next';
import Link from 'next/link';
import styles from '@/components/common/notice-page.module.css';

export const metadata: Metadata = { title: 'Not found' };

/**
 * Our own 404: Next's built-in one carries an inline <style> element without the CSP nonce, which
 * the policy (proxy.ts) blocks.
 */
export default function NotFound() {
  return (
    <main className={styles.page}>
      <section className={`panel ${styles.card}`} aria-labelledby="not-found-title">
        <h1 id="not-found-title" className={styles.title}>
          This page could not be found
        </h1>
        <p className={styles.text}>
          Check the address, or go to the <Link href="/transactions">transactions</Link>.
        </p>
      </section>
    </main>
  );
}
