import Link from 'next/link';
import { PAGE_PATHS } from '@/lib/http/paths';
import styles from './transaction-detail-view.module.css';

/** /transactions/<not a trx_id>: said plainly, and no request is made for it. */
export function InvalidTrxId({ value, problem }: { value: string; problem: string }) {
  return (
    <div className={`panel ${styles.invalid}`} role="alert" data-testid="invalid-trx-id">
      <h1 className={styles.title}>This is not a transaction ID</h1>
      <p>
        <code>{value}</code>: {problem}
      </p>
      <p>
        <Link href={PAGE_PATHS.transactions}>Back to transactions</Link>
      </p>
    </div>
  );
}
