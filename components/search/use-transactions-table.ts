'use client';
/**
 * The TanStack table over one page of results: columns from CDR_FIELDS, the column set from this
 * browser's preferences, and either the whole result's order (the query's) or a sort of the rows on
 * screen.
 */
import { getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { Cdr } from '@/lib/cdr/schema';
import type { CdrFieldKey } from '@/lib/cdr/fields';
import type { SortOrder } from '@/lib/query/query';
import type { Zone } from '@/lib/time/zones';
import type { ColumnPrefs } from '@/lib/search';
import { CDR_COLUMNS } from './columns';

export interface TransactionsTableOptions {
  rows: Cdr[];
  zone: Zone;
  sort: CdrFieldKey;
  sortOrder: SortOrder;
  wholeSort: boolean;
  prefs: ColumnPrefs;
  onSort: (field: CdrFieldKey, order: SortOrder) => void;
}

export function useTransactionsTable({
  rows,
  zone,
  sort,
  sortOrder,
  wholeSort,
  prefs,
  onSort,
}: TransactionsTableOptions) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const columnVisibility = useMemo(
    () => Object.fromEntries(prefs.order.map((k) => [k, prefs.visible.includes(k)])),
    [prefs],
  );
  // TanStack Table hands back functions that must not be memoised by a compiler; it is built to be called each render.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable({
    data: rows,
    columns: CDR_COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (row) => row.trx_id,
    // When the whole result is sorted by the server, the rows are shown in its order, never re-sorted here.
    state: { sorting: wholeSort ? [] : sorting, columnVisibility, columnOrder: prefs.order },
    onSortingChange: setSorting,
    enableMultiSort: false,
    manualPagination: true,
    meta: { zone, sort, sortOrder, wholeSort, onSort },
  });
}
