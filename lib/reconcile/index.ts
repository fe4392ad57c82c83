/**
 * What other features and the pages may use of reconcile, safe in the browser. Everything else in this folder is its own.
 */
export {
  MAX_RECONCILE_ROWS,
  OUTCOMES,
  RECONCILE_KINDS,
  isActiveReconcileState,
  type AnswerRecord,
  type CostVariance,
  type VarianceFigure,
  type Outcome,
  type ReconcileCreated,
  type ReconcileKind,
  type ReconcilePlan,
  type ReconcileRow,
  type ReconcileRowsPage,
  type ReconcileState,
  type ReconcileSummary,
  type Reconciliation,
} from './api';
