'use client';
/**
 * The answered list as CSV: the uploaded columns, then each row's answer (a row of several records,
 * a line each). Written by the server from every row, so what is on screen (one page) does not
 * limit it; "For Excel" is the same remembered choice as every CSV of the dashboard.
 */
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { rememberExcel, rememberedExcel } from '@/lib/csv/excel-choice';
import { API_PATHS } from '@/lib/http/paths';
import type { Reconciliation } from '@/lib/reconcile';
import { useHydrated } from '../common/use-hydrated';
import styles from './reconcile.module.css';

export function AnswerDownload({ r }: { r: Reconciliation }) {
  const t = useTranslations('reconcile.download');
  const [chosen, setChosen] = useState<boolean | null>(null);
  const id = useId();
  // The remembered choice is the browser's: read once the page runs there (the server's HTML has none).
  const hydrated = useHydrated();
  const excel = chosen ?? (hydrated && rememberedExcel());
  const href = `${API_PATHS.reconciliationFile(r.id)}${excel ? '?excel=true' : ''}`;
  return (
    <span className={styles.download}>
      <a className="button" href={href} download={r.fileName} data-testid="reconcile-download">
        {r.state === 'done' ? t('file') : t('partial')}
      </a>
      <label htmlFor={id} className={styles.choice} title={t('excelHint')}>
        <input
          id={id}
          type="checkbox"
          checked={excel}
          onChange={(e) => {
            setChosen(e.target.checked);
            rememberExcel(e.target.checked);
          }}
          data-testid="reconcile-excel"
        />
        {t('excel')}
      </label>
    </span>
  );
}
