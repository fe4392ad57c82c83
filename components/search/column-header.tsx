'use client';
/**
 * A column's header cell. It takes only the header. A click orders the whole result (a new search)
 * where that is possible: by received time always (the upstream's order), by any column when the
 * result comes from the local history. Otherwise a click sorts only the rows on screen.
 */
import type { Header } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import type { Cdr } from '@/lib/cdr/schema';
import { UPSTREAM_SORT, type SortOrder } from '@/lib/query/query';
import styles from './results-table.module.css';

const ARROWS: Record<SortOrder, string> = { asc: '↑', desc: '↓' };

export function ColumnHeader({ header }: { header: Header<Cdr, unknown> }) {
  const { column } = header;
  const { table } = header.getContext();
  const meta = table.options.meta!;
  const field = column.columnDef.meta!.field;
  const t = useTranslations('search.table');
  const tf = useTranslations('fields.field');
  const label = tf(`${field.key}.label`);
  const description = tf(`${field.key}.description`);
  const zoneSuffix = field.kind === 'timestamp' ? ` (${meta.zone})` : '';
  const clientSorted = table.getState().sorting.length > 0;

  if (column.id === UPSTREAM_SORT || meta.wholeSort) {
    const active = meta.sort === column.id && !clientSorted;
    const order = meta.sortOrder;
    // The column already sorting flips; another starts newest/largest first for times, A→Z otherwise.
    const next: SortOrder =
      meta.sort === column.id ? (order === 'desc' ? 'asc' : 'desc') : field.kind === 'timestamp' ? 'desc' : 'asc';

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
              ? `${description} ${t('backToOrder')}`
              : `${description} ${t('sortAll', { where: meta.wholeSort ? 'local' : 'upstream', next })}`
          }
          data-testid={column.id === UPSTREAM_SORT ? 'upstream-sort' : 'whole-sort'}
        >
          {label}
          {zoneSuffix}
          <span className={styles.sortMark} data-active={active} aria-hidden="true">
            {active ? ARROWS[order] : '↕'}
          </span>
          {active ? <span className="visually-hidden">{t('sortedAll', { order })}</span> : null}
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
        title={`${description} ${t('sortPage')}`}
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
