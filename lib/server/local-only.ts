import 'server-only';
/** A query that only the local history could answer, asked where there is none. */
import { badRequest, type ProblemError } from '../http/problem';
import { localFiltersIn } from '../query/filters';
import { UPSTREAM_SORT, type TransactionsQuery } from '../query/query';

export function localHistoryNeeded(query: Pick<TransactionsQuery, 'filters' | 'sort'>): ProblemError {
  const errors: Record<string, string> = {};
  for (const param of localFiltersIn(query.filters)) errors[param] = `${param} filters the local history, which has no copy of this range; remove it to ask the Report API.`;
  if (query.sort !== UPSTREAM_SORT) errors.sort = 'Sorting by another column than received time needs the local history, which has no copy of this range.';
  return badRequest(errors);
}
