/**
 * Who a call is for, which decides its place in the queue and the windows it counts in:
 *  - `interactive`: a person's search or lookup;
 *  - `renewal`: the token renewal a person's call (or a background job) needs;
 *  - `signin`: checking a key and secret at sign-in (no session yet), from an address the key
 *    signed in from lately (lib/auth/sign-in-throttle.ts);
 *  - `signin-new`: the same from any other address, which may take only part of the sign-ins'
 *    token calls (decision.ts): a flood of sign-ins with made-up keys leaves the rest to owners;
 *  - `export`: a page of an export job;
 *  - `sync`: a page of the local history's copy.
 * Query-API calls (interactive, export, sync) count in the upstream's minute/hour/day windows;
 * token requests (renewal, signin) count only in the deployment's token window.
 */
export const CALL_CLASSES = ['interactive', 'renewal', 'signin', 'signin-new', 'export', 'sync'] as const;
export type CallClass = (typeof CALL_CLASSES)[number];

/**
 * A class as the store keeps it (its name). A name this version does not know (written by a newer
 * one during a rolling upgrade) counts as a person's call: it still counts in every window.
 */
export function callClassOf(name: string): CallClass {
  return (CALL_CLASSES as readonly string[]).includes(name) ? (name as CallClass) : 'interactive';
}

/** Queue order: people first (and the renewals their calls wait for), then sign-ins, then exports, then the copy. */
const RANK: Record<CallClass, number> = { interactive: 0, renewal: 0, signin: 1, 'signin-new': 1, export: 2, sync: 3 };

export function rankOf(cls: CallClass): number {
  return RANK[cls];
}

/** Background work never takes the calls kept for people. */
export function isBackground(cls: CallClass): boolean {
  return cls === 'export' || cls === 'sync';
}

/** Counted by the upstream's query windows (3 a minute, 10 an hour, 100 a day). */
export function countsInQueryWindows(cls: CallClass): boolean {
  return cls === 'interactive' || cls === 'export' || cls === 'sync';
}

export function isTokenCall(cls: CallClass): boolean {
  return cls === 'renewal' || isSignIn(cls);
}

export function isSignIn(cls: CallClass): boolean {
  return cls === 'signin' || cls === 'signin-new';
}

/** Sign-in calls are not an account's (the key is not known to be real): they are ledgered under this name. */
export const SIGN_IN_ACCOUNT = '(sign-in)';
