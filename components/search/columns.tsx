'use client';
/**
 * The table's columns, one per field of CDR_FIELDS: header, cell renderer and client-side sort
 * all follow the field's kind. Nothing here names a field except the one the upstream sorts by.
 */
import type { ColumnDef, RowData, SortingFn } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { CDR_FIELDS, type CdrFieldKey, type Field } from '@/lib/cdr/fields';
import type { Cdr } from '@/lib/cdr/schema';
import { UPSTREAM_SORT, type SortOrder } from '@/lib/query/query';
import type { Zone } from '@/lib/time/zones';
import { parseUpstreamTimestamp } from '@/lib/time/zones';
import { fieldText } from '@/lib/cdr/record-text';
import { FieldValue } from '../cdr/field-value';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    field: Field;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData extends RowData> {
    zone: Zone;
    /** The order of the whole result (the query's). */
    sort: CdrFieldKey;
    sortOrder: SortOrder;
    /**
     * True when the result is answered by the local history, which sorts the whole result by any
     * column; otherwise only received time orders the whole result and other columns sort the page.
     */
    wholeSort: boolean;
    /** Orders the whole result (a new search; free over the local history). */
    onSort: (field: CdrFieldKey, order: SortOrder) => void;
  }
}

function numeric(value: string): number {
  const n = Number(value);
  return value.trim() === '' || !Number.isFinite(n) ? Number.NEGATIVE_INFINITY : n;
}

function instant(value: string): number {
  return parseUpstreamTimestamp(value)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

function sortingFnFor(field: Field): SortingFn<Cdr> {
  const read = (row: { original: Cdr }) => fieldText(row.original, field.key);
  if (field.kind === 'timestamp') return (a, b) => instant(read(a)) - instant(read(b));
  if (field.kind === 'integer' || field.kind === 'price') return (a, b) => numeric(read(a)) - numeric(read(b));
  return (a, b) => read(a).localeCompare(read(b), 'en', { numeric: true });
}

/** A column's name in the page's language (messages/<locale>/fields.json). */
function ColumnLabel({ field }: { field: Field }) {
  return useTranslations('fields.field')(`${field.key}.label`);
}

export const CDR_COLUMNS: ColumnDef<Cdr>[] = CDR_FIELDS.map((field) => ({
  id: field.key,
  accessorFn: (row: Cdr) => fieldText(row, field.key),
  // In the page's language (a component, so the skeleton's headers are too).
  header: () => <ColumnLabel field={field} />,
  cell: ({ row, table }) => <FieldValue field={field} record={row.original} zone={table.options.meta!.zone} inTable />,
  enableSorting: field.key !== UPSTREAM_SORT,
  sortingFn: sortingFnFor(field),
  sortDescFirst: false,
  meta: { field },
}));
