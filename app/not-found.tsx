import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import styles from '@/components/common/notice-page.module.css';
import { PAGE_PATHS } from '@/lib/http/paths';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('common.notFound'))('pageTitle') };
}

/**
 * Our own 404: Next's built-in one carries an inline <style> element without the CSP nonce, which
 * the policy (proxy.ts) blocks.
 */
export default async function NotFound() {
  const t = await getTranslations('common.notFound');
  return (
    <main className={styles.page}>
      <section className={`panel ${styles.card}`} aria-labelledby="not-found-title">
        <h1 id="not-found-title" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.text}>
          {t.rich('text', { link: (chunks) => <Link href={PAGE_PATHS.transactions}>{chunks}</Link> })}
        </p>
      </section>
    </main>
  );
}
