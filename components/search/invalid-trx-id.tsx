'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { Words } from '@/lib/i18n/message';
import { useWords } from '@/lib/i18n/use-words';
import { PAGE_PATHS } from '@/lib/http/paths';
import styles from './transaction-detail-view.module.css';

/** /transactions/<not a trx_id>: said plainly, and no request is made for it. */
export function InvalidTrxId({ value, problem }: { value: string; problem: Words }) {
  const t = useTranslations('detail');
  const say = useWords();
  return (
    <div className={`panel ${styles.invalid}`} role="alert" data-testid="invalid-trx-id">
      <h1 className={styles.title}>{t('notTrxId')}</h1>
      <p>
        <code>{value}</code>: {say(problem)}
      </p>
      <p>
        <Link href={PAGE_PATHS.transactions}>{t('back')}</Link>
      </p>
    </div>
  );
}
