'use client';
/**
 * What a page that failed while drawing says, in the reader's language (Next's own says "Application
 * error" in English). The digest is the server log's key for the failure: a person can quote it
 * to whoever runs the dashboard, and nothing else of the error reaches the browser.
 */
import { useTranslations } from 'next-intl';
import styles from '@/components/common/notice-page.module.css';

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('common.error');
  return (
    <main className={styles.page}>
      <section className={`panel ${styles.card}`} aria-labelledby="page-error-title" role="alert">
        <h1 id="page-error-title" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.text}>{t('text')}</p>
        {error.digest ? (
          <p className={styles.text}>
            {t('digest')} <code translate="no">{error.digest}</code>
          </p>
        ) : null}
        <p className={styles.action}>
          <button type="button" className="button button-primary" onClick={reset}>
            {t('retry')}
          </button>
        </p>
      </section>
    </main>
  );
}
