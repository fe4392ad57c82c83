import type { Words } from '../i18n/message';

/** RFC 9457 problem details, as every error of the dashboard's API is answered. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** Per-parameter messages for 400. */
  errors?: Record<string, string>;
  /** For 429/503: seconds until a retry can succeed (also in the Retry-After header). */
  retryAfterSeconds?: number;
  /** For 429: which limit is full and when the next call can go. */
  limitedBy?: 'minute' | 'hour' | 'day' | 'in-flight' | 'upstream' | 'tokens' | null;
  limitScope?: 'account' | 'deployment' | null;
  nextCallAt?: string;
  /** For 429: `detail` without its wait, for a screen that counts the wait down itself. */
  reason?: string;
  /** For 403 of team mode: the least role the request needs, and the one the person has. */
  neededRole?: string;
  yourRole?: string;
  /** For 413: the largest body the endpoint reads, in bytes. */
  maxBodyBytes?: number;
  /**
   * For a refused sign-in: the sign-in page carrying the error code (`/signin?error=…`), where
   * next-auth's client (`signIn(…, { redirect: false })`) reads the code from.
   */
  url?: string;
}

/**
 * A problem before its words are put in the reader's language: `title`, `detail`, `reason` and
 * each `errors` entry as Words (a catalogue key and values, lib/i18n/message.ts), so code anywhere
 * can throw it without knowing who asked; the route wrapper renders it (lib/http/problem.ts
 * renderProblem) in the request's language. `type`, the field names of `errors` and every other
 * member stay as they are: they are for machines.
 */
export interface ProblemSpec extends Omit<Problem, 'title' | 'detail' | 'errors' | 'reason'> {
  title: Words;
  detail?: Words;
  errors?: Record<string, Words>;
  reason?: Words;
}
