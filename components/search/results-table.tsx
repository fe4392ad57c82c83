'use client';
/**
 * The dense results table. A row opens with a click or Enter; ↑/↓ move between rows. While the
 * next page loads the previous one stays on screen, dimmed, rather than flashing empty.
 */
import { flexRender, type Table } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import type { Cdr } from '@/lib/cdr/schema';
import { ColumnHeader } from './column-header';
import styles from './results-table.module.css';

export interface ResultsTableProps {
  table: Table<Cdr>;
  caption: string;
  openRowId: string | null;
  onOpenRow: (trxId: string) => void;
  /** Previous results shown while the next ones load. */
  stale: boolean;
}

function moveFocus(from: HTMLElement, delta: 1 | -1) {
  const target = (delta === 1 ? from.nextElementSibling : from.previousElementSibling) as HTMLElement | null;
  target?.focus();
}

export function ResultsTable({ table, caption, openRowId, onOpenRow, stale }: ResultsTableProps) {
  const t = useTranslations('search.table');
  const scroller = useRef<HTMLDivElement>(null);
  const firstRow = table.getRowModel().rows[0]?.id;
  // A new page starts at its top row, not where the last one was scrolled to.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [firstRow]);

  return (
    <div ref={scroller} className={styles.scroller} data-stale={stale}>
      <table className={styles.table} data-testid="results-table" aria-busy={stale}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <ColumnHeader key={header.id} header={header} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className={styles.row}
              tabIndex={0}
              data-row-id={row.id}
              data-open={row.id === openRowId}
              aria-label={t('openRow', { id: row.id })}
              onClick={() => onOpenRow(row.id)}
              onKeyDown={(e) => {
                if (e.target !== e.currentTarget) return;
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onOpenRow(row.id);
                } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                  e.preventDefault();
                  moveFocus(e.currentTarget, e.key === 'ArrowDown' ? 1 : -1);
                }
              }}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={styles.td} data-kind={cell.column.columnDef.meta!.field.kind}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Placeholder rows in the shape of the table while the first answer is on its way. */
export function ResultsSkeleton({ table, rows = 8 }: { table: Table<Cdr>; rows?: number }) {
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  return (
    <div className={styles.scroller} aria-hidden="true" data-testid="results-skeleton">
      <table className={styles.table}>
        <thead>
          <tr>
            {headers.map((h) => (
              <th key={h.id} className={styles.th}>
                <span className={styles.thText}>{flexRender(h.column.columnDef.header, h.getContext())}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              {headers.map((h, j) => (
                <td key={h.id} className={styles.td}>
                  <span className={styles.bone} style={{ width: `${45 + ((i * 7 + j * 13) % 45)}%` }} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
