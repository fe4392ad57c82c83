'use client';
/**
 * The Reconcile page: a list uploaded or pasted, its plan before any call, its run in the background,
 * and each row's answer with a summary on top. Which reconciliation is open, and the view of its
 * rows, live in the URL (`?id=…&outcome=…&status=…&page=…`): a reload, back and forward and a pasted
 * link show the same view.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useQueryStates } from 'nuqs';
import { reconciliationQueryOptions, reconcileUrlParsers } from '@/lib/reconcile/client';
import { errorText } from '@/lib/http/api-client';
import { PlanPanel } from './plan-panel';
import { RecentList } from './recent-list';
import { ReconcileRows } from './reconcile-rows';
import { RunStatus } from './run-status';
import { SummaryPanel } from './summary-panel';
import { UploadForm } from './upload-form';
import styles from './reconcile.module.css';

export function ReconcileView() {
  const t = useTranslations('reconcile');
  const [url, setUrl] = useQueryStates(reconcileUrlParsers);
  const open = (id: string | null) => setUrl({ id, outcome: null, status: null, page: null });

  return (
    <div className={styles.page}>
      <div className={styles.titleRow}>
        <h1 className={styles.title}>{t('title')}</h1>
        {url.id ? (
          <button type="button" className="button button-small" onClick={() => open(null)} data-testid="reconcile-new">
            {t('newList')}
          </button>
        ) : null}
      </div>
      {url.id ? (
        <Opened id={url.id} view={url} onView={(v) => setUrl(v)} onForgotten={() => open(null)} />
      ) : (
        <>
          <p className={styles.intro}>{t('intro')}</p>
          <UploadForm onCreated={(id) => open(id)} />
          <RecentList onOpen={(id) => open(id)} />
        </>
      )}
    </div>
  );
}

type View = {
  outcome: 'matched' | 'not_found' | 'several' | 'invalid' | 'pending' | null;
  status: string | null;
  page: number;
};

function Opened({
  id,
  view,
  onView,
  onForgotten,
}: {
  id: string;
  view: View;
  onView: (v: Partial<View>) => void;
  onForgotten: () => void;
}) {
  const t = useTranslations('reconcile');
  const { data: r, error, isPending } = useQuery(reconciliationQueryOptions(id));
  if (isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (error || !r)
    return (
      <p className={styles.error} role="alert">
        {errorText(error)}
      </p>
    );
  const filter = (next: Partial<View>) => onView({ outcome: null, status: null, ...next, page: 1 });
  return (
    <div className={styles.opened} data-testid="reconciliation" data-state={r.state}>
      {r.state === 'planned' ? (
        <PlanPanel r={r} onForgotten={onForgotten} />
      ) : (
        <RunStatus r={r} onForgotten={onForgotten} />
      )}
      <SummaryPanel r={r} view={view} onFilter={filter} />
      <ReconcileRows r={r} view={view} onView={onView} />
    </div>
  );
}
