'use client';
/**
 * The header's sign that exports are under way: how many of the account's exports are queued,
 * running or waiting, linking to /exports. Shows nothing when none is. Polls (free: no upstream
 * call) only while one is active.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { isActiveExportState } from '@/lib/exports';
import { PAGE_PATHS } from '@/lib/http/paths';
import { exportsQueryOptions } from '@/lib/exports/client';
import styles from './exports-badge.module.css';

export function ExportsBadge() {
  const t = useTranslations('exports.badge');
  const { data } = useQuery(exportsQueryOptions());
  const active = data?.jobs.filter((j) => isActiveExportState(j.state)) ?? [];
  if (active.length === 0) return null;
  const waiting = active.every((j) => j.state === 'waiting');
  const label = t(waiting ? 'waiting' : 'running', { count: active.length });
  return (
    <Link
      href={PAGE_PATHS.exports}
      className={styles.badge}
      data-state={waiting ? 'waiting' : 'running'}
      aria-label={label}
      title={label}
      data-testid="exports-badge"
    >
      <span className={styles.dot} aria-hidden="true" />
      {active.length}
    </Link>
  );
}
