'use client';
/**
 * A column's header cell. It takes only the header: the received-time column asks the upstream to
 * re-sort (a new search across all results); any other column sorts the rows on screen.
 */
import { flexRender, type Header } from '@tanstack/react-table';
import type { Cdr } from '@/lib/cdr/schema';
import { UPSTREAM_SORT, type SortOrder } from '@/lib/query/query';
import styles from './results-table.module.css';

const ARROWS: Record<SortOrder, string> = { asc: '↑', desc: '↓' };

export function ColumnHeader({ header }: { header: Header<Cdr, unknown> }) {
  const { column } = header;
  const { table } = header.getContext();
  const meta = table.options.meta!;
  const field = column.columnDef.meta!.field;
  const label = flexRender(column.columnDef.header, header.getContext());
  const zoneSuffix = field.kind === 'timestamp' ? ` (${meta.zone})` : '';
  const clientSorted = table.getState().sorting.length > 0;

  if (column.id === UPSTREAM_SORT) {
    const order = meta.sortOrder;
    const next = order === 'desc' ? 'asc' : 'desc';
    return (
      <th scope="col" className={styles.th} aria-sort={clientSorted ? 'none' : order === 'desc' ? 'descending' : 'ascending'} data-column={column.id}>
        <button
          type="button"
          className={styles.sortButton}
          onClick={() => meta.onUpstreamSort(next)}
          title={`Sorted by the upstream across all results. Click for ${next === 'asc' ? 'oldest' : 'newest'} first (a new search).`}
          data-testid="upstream-sort"
        >
          {label}
          {zoneSuffix}
          <span className={styles.sortMark} data-active={!clientSorted} aria-hidden="true">
            {ARROWS[order]}
          </span>
          <span className="visually-hidden">, {order === 'desc' ? 'newest first' : 'oldest first'} across all results</span>
        </button>
      </th>
    );
  }

  const sorted = column.getIsSorted();
  return (
    <th scope="col" className={styles.th} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'} data-column={column.id}>
      <button
        type="button"
        className={styles.sortButton}
        onClick={column.getToggleSortingHandler()}
        title={`${field.description} Sorting by this column orders the rows on this page only.`}
      >
        {label}
        {zoneSuffix}
        <span className={styles.sortMark} data-active={Boolean(sorted)} aria-hidden="true">
          {sorted ? ARROWS[sorted] : '↕'}
        </span>
      </button>
    </th>
  );
}
