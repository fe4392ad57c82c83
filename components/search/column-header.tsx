'use client';
/**
 * A column's header cell. It takes only the header. A click orders the whole result (a new search)
 * where that is possible: by received time always (the upstream's order), by any column when the
 * result comes from the local history. Otherwise a click sorts only the rows on screen.
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

  if (column.id === UPSTREAM_SORT || meta.wholeSort) {
    const active = meta.sort === column.id && !clientSorted;
    const order = meta.sortOrder;
    // The column already sorting flips; another starts newest/largest first for times, A→Z otherwise.
    const next: SortOrder =
      meta.sort === column.id ? (order === 'desc' ? 'asc' : 'desc') : field.kind === 'timestamp' ? 'desc' : 'asc';
    const where = meta.wholeSort ? 'by the local history (no call)' : 'by the upstream';
    return (
      <th
        scope="col"
        className={styles.th}
        aria-sort={!active ? 'none' : order === 'desc' ? 'descending' : 'ascending'}
        data-column={column.id}
      >
        <button
          type="button"
          className={styles.sortButton}
          onClick={() => {
            // The page sorted on its own: a click on the search's own order takes the page back to it
            // (no new search); on another column, it is a new search in that order.
            if (clientSorted) table.resetSorting();
            if (!(clientSorted && meta.sort === column.id)) meta.onSort(field.key, next);
          }}
          title={
            clientSorted && meta.sort === column.id
              ? `${field.description} Back to the search's own order (no new search).`
              : `${field.description} Orders all results ${where}. Click for ${next === 'asc' ? 'ascending' : 'descending'} (a new search).`
          }
          data-testid={column.id === UPSTREAM_SORT ? 'upstream-sort' : 'whole-sort'}
        >
          {label}
          {zoneSuffix}
          <span className={styles.sortMark} data-active={active} aria-hidden="true">
            {active ? ARROWS[order] : '↕'}
          </span>
          {active ? (
            <span className="visually-hidden">
              , {order === 'desc' ? 'descending' : 'ascending'} across all results
            </span>
          ) : null}
        </button>
      </th>
    );
  }

  const sorted = column.getIsSorted();
  return (
    <th
      scope="col"
      className={styles.th}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
      data-column={column.id}
    >
      <button
        type="button"
        className={styles.sortButton}
        onClick={column.getToggleSortingHandler()}
        title={`${field.description} Sorting by this column orders the rows on this page only (the whole result can be sorted by any column over days copied to the local history).`}
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
