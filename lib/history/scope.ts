/**
 * Whose copy: the local history is kept per API key and enterprise (the session's), like the page
 * cache is kept per account — one account's copy is never read for another.
 */
export interface HistoryScope {
  /** The store's key of the copy. */
  key: string;
  apiKey: string;
  enterpriseId: string | null;
}

export function scopeOf(account: { apiKey: string; enterpriseId: string | null }): HistoryScope {
  // JSON: unambiguous whatever the key holds, and text either database stores (PostgreSQL refuses NUL).
  return {
    key: JSON.stringify([account.apiKey, account.enterpriseId]),
    apiKey: account.apiKey,
    enterpriseId: account.enterpriseId,
  };
}
