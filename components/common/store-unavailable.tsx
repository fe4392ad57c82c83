'use client';
/**
 * What a signed-in page shows while the dashboard's own database cannot be reached (a restart, a
 * failover): the session is kept, and the page tries again by itself every few seconds, as the
 * API's 503 answers ask their callers to (Retry-After).
 */
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect } from 'react';
import styles from './notice-page.module.css';

/** `retrySeconds`: the API's `Retry-After` for the same condition (lib/http/problem.ts), from the server. */
export function StoreUnavailable({ retrySeconds }: { retrySeconds: number }) {
  const t = useTranslations('store.unavailable');
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), retrySeconds * 1000);
    return () => clearInterval(timer);
  }, [router, retrySeconds]);
  return (
    <main className={styles.page}>
      <section className={`panel ${styles.card}`} role="alert" aria-labelledby="store-unavailable-title">
        <h1 id="store-unavailable-title" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.text}>{t('text', { seconds: retrySeconds })}</p>
        <button type="button" className={`button ${styles.action}`} onClick={() => router.refresh()}>
          {t('retry')}
        </button>
      </section>
    </main>
  );
}
