'use client';
/**
 * The detail drawer: a native modal <dialog> on the right. ↑/↓ move to the previous/next row of
 * the table, Esc closes (and the page returns focus to the row). A row that is not on the loaded
 * page — a pasted link — is fetched by its id.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { PAGE_PATHS } from '@/lib/http/paths';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { rolesMasked } from '@/lib/team';
import { useAccount } from '../shell/account-context';
import { RevealButton } from '../team/reveal-button';
import type { Field } from '@/lib/cdr/fields';
import type { Cdr } from '@/lib/cdr/schema';
import type { FilterParam } from '@/lib/query/filters';
import type { Zone } from '@/lib/time/zones';
import { transactionQueryOptions } from '@/lib/lookup/client';
import { CdrDetail } from '../cdr/cdr-detail';
import { CopyButton } from '../common/copy-button';
import { QueryProblem } from './query-problem';
import { SourceTag } from './result-summary';
import styles from './detail-drawer.module.css';

export interface DetailDrawerProps {
  trxId: string;
  /** The table's rows in displayed order: where ↑/↓ go. */
  rows: readonly Cdr[];
  /**
   * The page's rows are in (or will not come): only then is a row not among them looked up by its
   * trx_id. Looked up while the page loads, a row of that page would cost a call of its own.
   */
  rowsSettled: boolean;
  zone: Zone;
  onClose: () => void;
  onMove: (trxId: string) => void;
  onFilter: (param: FilterParam, value: string, field: Field) => void;
}

const TYPING = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

export function DetailDrawer({ trxId, rows, rowsSettled, zone, onClose, onMove, onFilter }: DetailDrawerProps) {
  const t = useTranslations('detail');
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const index = rows.findIndex((r) => r.trx_id === trxId);
  const onPage = index >= 0 ? rows[index]! : null;
  const fetched = useQuery({ ...transactionQueryOptions(trxId, zone), enabled: onPage === null && rowsSettled });
  // A record revealed (team mode: a support person, with a reason) stands for the masked one until
  // the drawer moves to another row or closes.
  const [revealed, setRevealed] = useState<Cdr | null>(null);
  const masked = rolesMasked(useAccount().role);
  const tReveal = useTranslations('team.reveal');
  const shownRevealed = revealed?.trx_id === trxId ? revealed : null;
  const record = shownRevealed ?? onPage ?? fetched.data ?? null;
  const prev = index > 0 ? rows[index - 1]! : null;
  const next = index >= 0 && index < rows.length - 1 ? rows[index + 1]! : null;

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (!el.open) el.showModal();
    title.current?.focus();
    return () => el.close();
  }, []);

  function onKeyDown(e: KeyboardEvent) {
    if (TYPING.has((e.target as HTMLElement).tagName)) return;
    const target = e.key === 'ArrowDown' ? next : e.key === 'ArrowUp' ? prev : null;
    if (target) {
      e.preventDefault();
      onMove(target.trx_id);
    }
  }

  return (
    <dialog
      ref={dialog}
      className={styles.drawer}
      aria-labelledby="drawer-title"
      data-testid="detail-drawer"
      onCancel={(e) => {
        // Esc: let the page close it, so the URL and the focus follow.
        e.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        // A click on the backdrop (the dialog box itself, outside its content) closes.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className={styles.content}>
        <header className={styles.header}>
          <div className={styles.titleBlock}>
            <h2 id="drawer-title" ref={title} tabIndex={-1} className={styles.title}>
              {t('transaction')}
            </h2>
            <span className={styles.id}>
              <code data-testid="drawer-trx-id">{trxId}</code>
              <CopyButton value={trxId} label={t('trxId')} />
            </span>
          </div>
          <div className={styles.tools}>
            {index >= 0 ? (
              <span className={styles.position}>{t('position', { index: index + 1, count: rows.length })}</span>
            ) : null}
            <button
              type="button"
              className="button button-small"
              disabled={!prev}
              onClick={() => prev && onMove(prev.trx_id)}
              aria-label={t('prevRow')}
              title={t('prevRowKey')}
            >
              ↑
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={!next}
              onClick={() => next && onMove(next.trx_id)}
              aria-label={t('nextRow')}
              title={t('nextRowKey')}
            >
              ↓
            </button>
            {masked && record && !shownRevealed ? (
              <RevealButton trxId={trxId} zone={zone} onRevealed={setRevealed} />
            ) : null}
            <button
              type="button"
              className="button button-small"
              onClick={onClose}
              data-testid="drawer-close"
              title={t('closeKey')}
            >
              {t('close')}
            </button>
          </div>
        </header>
        <div className={styles.subheader}>
          <Link href={PAGE_PATHS.transaction(trxId, zone)} className={styles.pageLink}>
            {t('openAsPage')}
          </Link>
          {onPage === null && fetched.data?._meta ? (
            <SourceTag meta={fetched.data._meta} fetchedAt={fetched.dataUpdatedAt} />
          ) : null}
          {index < 0 ? <span className={styles.hint}>{t('notOnPage')}</span> : null}
          <span className={styles.hint}>{t.rich('keys', { kbd: (chunks) => <kbd>{chunks}</kbd> })}</span>
        </div>
        <div className={styles.body} data-testid="drawer-body">
          {shownRevealed ? (
            <p className={styles.hint} role="status" data-testid="revealed-note">
              {tReveal('done')}
            </p>
          ) : null}
          {record ? (
            <CdrDetail record={record as Record<string, unknown>} zone={zone} onFilter={onFilter} />
          ) : fetched.isError ? (
            <QueryProblem
              key={fetched.errorUpdatedAt}
              error={fetched.error}
              onRetry={() => void fetched.refetch()}
              subject="transaction"
            />
          ) : (
            <p className={styles.loading} role="status">
              {t('loading')}
            </p>
          )}
        </div>
      </div>
    </dialog>
  );
}
