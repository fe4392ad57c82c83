/**
 * The browser's cache keys of the dashboard's resources, in one place: a change to one resource
 * invalidates another's entries by these (a copied day changes what a search costs and what Insights
 * counts), without the features importing each other.
 */
export const QUERY_KEYS = {
  quota: ['quota'],
  plan: ['plan'],
  transactions: ['transactions'],
  transaction: ['transaction'],
  exports: ['exports'],
  history: ['history'],
  insights: ['insights'],
  reconciliations: ['reconciliations'],
} as const;
