'use client';
/**
 * /transactions/<trx_id>: the drawer's content as a page, to paste into a ticket. A record the
 * dashboard has seen costs no call (the server answers it from its cache). Opened from another
 * site's link (`heldLink`), it looks nothing up until the person asks: another site could otherwise
 * spend the account's calls by linking to made-up ids.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useQueryStates } from 'nuqs';
import Link from 'next/link';
import { parseAsString } from 'nuqs';
import { QUERY_DEFAULTS } from '@/lib/query/query';
import { parseUpstreamTimestamp, type Zone } from '@/lib/time/zones';
import { PAGE_PATHS } from '@/lib/http/paths';
import { fieldText } from '@/lib/cdr/record-text';
import { transactionQueryOptions } from '@/lib/lookup/client';
import { pageHref, zoneOf } from '@/lib/query/page-url';
import { CdrDetail } from '../cdr/cdr-detail';
import type { Cdr } from '@/lib/cdr/schema';
import { rolesMasked } from '@/lib/team';
import { useAccount } from '../shell/account-context';
import { RevealButton } from '../team/reveal-button';
import { CopyButton } from '../common/copy-button';
import { ZoneToggle } from '../common/zone-toggle';
import { QueryProblem } from './query-problem';
import { SourceTag } from './result-summary';
import { useHeldLink } from './use-held-link';
import styles from './transaction-detail-view.module.css';
import { usePreferredZone } from '../common/preferred-zone';
import { HOUR_MS } from '@/lib/time/units';

/** The hour either side of the record's receipt, as a search with the record open. */
function searchAroundHref(received: string, trxId: string, zone: Zone): string | null {
  const at = parseUpstreamTimestamp(received);
  if (!at) return null;
  // Whole seconds: the query's range is read to the second.
  const second = Math.floor(at.getTime() / 1000) * 1000;
  return pageHref(
    { ...QUERY_DEFAULTS, from: new Date(second - HOUR_MS), to: new Date(second + HOUR_MS), tz: zone, filters: {} },
    trxId,
  );
}

export function TransactionDetailView({ trxId, heldLink = false }: { trxId: string; heldLink?: boolean }) {
  const t = useTranslations('detail');
  const [url, setUrl] = useQueryStates({ tz: parseAsString });
  const zone = zoneOf(url, usePreferredZone().zone);
  const [held, setHeld] = useHeldLink(heldLink);
  const record = useQuery({ ...transactionQueryOptions(trxId, zone), enabled: !held });
  const around = record.data ? searchAroundHref(fieldText(record.data, 'date_received'), trxId, zone) : null;
  // Team mode: a masked role may reveal this record with a reason (components/team/reveal-button.tsx).
  const masked = rolesMasked(useAccount().role);
  const [revealed, setRevealed] = useState<Cdr | null>(null);
  const shown = revealed ?? record.data;

  return (
    <article className={styles.page} aria-labelledby="trx-title">
      <nav aria-label={t('breadcrumb')} className={styles.crumbs}>
        <Link href={PAGE_PATHS.transactions}>{t('transactions')}</Link> <span aria-hidden="true">/</span>{' '}
        <span>{t('transaction')}</span>
      </nav>
      <header className={styles.header}>
        <div>
          <h1 id="trx-title" className={styles.title}>
            {t('transaction')} <code data-testid="page-trx-id">{trxId}</code>
          </h1>
          <div className={styles.meta}>
            <CopyButton value={trxId} label={t('trxId')} text={t('copyId')} />
            <CopyButton value={() => window.location.href} label={t('pageLink')} text={t('copyLink')} />
            {record.data?._meta ? <SourceTag meta={record.data._meta} fetchedAt={record.dataUpdatedAt} /> : null}
            {record.data?._meta?.stale ? (
              <span className={styles.stale}>{t('stale', { reason: record.data._meta.stale })}</span>
            ) : null}
          </div>
        </div>
        <div className={styles.tools}>
          {around ? (
            <Link className="button button-small" href={around} title={t('aroundTitle')}>
              {t('around')}
            </Link>
          ) : null}
          {masked && record.data && !revealed ? (
            <RevealButton trxId={trxId} zone={zone} onRevealed={setRevealed} />
          ) : null}
          <ZoneToggle zone={zone} onChange={(tz) => void setUrl({ tz })} />
        </div>
      </header>
      <div className={`panel ${styles.body}`}>
        {held ? (
          <div className={styles.held} role="status" data-testid="held-lookup">
            <h2 className={styles.heldTitle}>{t('heldTitle')}</h2>
            <p>{t('heldText')}</p>
            <button
              type="button"
              className="button button-primary"
              onClick={() => setHeld(false)}
              data-testid="look-up"
            >
              {t('lookUp')}
            </button>
          </div>
        ) : shown ? (
          <CdrDetail record={shown as unknown as Record<string, unknown>} zone={zone} headingLevel={2} />
        ) : record.isError ? (
          <QueryProblem
            key={record.errorUpdatedAt}
            error={record.error}
            onRetry={() => void record.refetch()}
            subject="transaction"
            headingLevel={2}
          />
        ) : (
          <p role="status" className={styles.loading}>
            {t('loading')}
          </p>
        )}
      </div>
    </article>
  );
}
