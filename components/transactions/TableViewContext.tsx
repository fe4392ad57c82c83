'use client';
/**
 * What the transactions table shows right now — the query behind it, the rows in their displayed
 * order, the visible columns in order and the zone — for anything beside the table that needs the
 * same view (the export button reads it to export "what I see").
 */
import { createContext, useContext } from 'react';
import type { CdrFieldKey } from '@/lib/cdr/fields';
import type { Cdr } from '@/lib/cdr/schema';
import type { TransactionsQuery } from '@/lib/query/query';
import type { Zone } from '@/lib/time/zones';

export interface TableView {
  /** The searched query, or null before a search. */
  query: TransactionsQuery | null;
  rows: readonly Cdr[];
  columns: readonly CdrFieldKey[];
  zone: Zone;
  total: number | null;
}

const TableViewContext = createContext<TableView | null>(null);

export const TableViewProvider = TableViewContext.Provider;

/** The table's current view; throws outside the transactions page. */
export function useTableView(): TableView {
  const view = useContext(TableViewContext);
  if (!view) throw new Error('useTableView must be used inside the transactions page');
  return view;
}
