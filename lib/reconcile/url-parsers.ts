/**
 * The Reconcile page's URL: which reconciliation is open, and the view of its rows (an outcome, a
 * status, a page), so a reload, back and forward and a pasted link show the same view.
 */
import { parseAsInteger, parseAsString, parseAsStringLiteral } from 'nuqs';
import { OUTCOMES } from './api';

export const reconcileUrlParsers = {
  id: parseAsString,
  outcome: parseAsStringLiteral([...OUTCOMES, 'pending'] as const),
  status: parseAsString,
  page: parseAsInteger.withDefault(1),
};
