/** Settled days the demo's accounts start with in their local history (scripts/lib/demo-history.ts). */
export const DEMO_HISTORY_DAYS = 31;
