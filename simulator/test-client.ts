/**
 * A minimal, correct client of the simulator for tests (this folder's and anyone else's): the
 * headers the upstream requires, the token dance, the parameter encoding of the sample.
 */
import { QUERY_PATH, TOKEN_PATH } from './api';
import type { SimCdr } from './cdr';
import type { RunningSimulator } from './server';

export interface PageBody {
  page_size: number;
  page: number;
  _links: { self: { href: string }; next?: { href: string }; first: { href: string }; last: { href: string } };
  _embedded: { total_found: number; cdrs: SimCdr[] };
}

export interface ErrorJson {
  status: number;
  error: string;
  message: string;
  /** 429 only: the limit hit and whose it is (`account demo`, `IP 127.0.0.1`). */
  limit?: string;
  subject?: string;
}

/** Noon in Tokyo on Sunday 15 March 2026: a pinned "now" for deterministic tests. */
export const PINNED_NOW = Date.UTC(2026, 2, 15, 3, 0, 0);

export const API_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json; charset=UTF-8' } as const;

export interface SimResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
}

export async function call(
  sim: Pick<RunningSimulator, 'url'>,
  path: string,
  init: RequestInit = {},
): Promise<SimResponse> {
  const res = await fetch(sim.url + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

export async function getToken(
  sim: Pick<RunningSimulator, 'url'>,
  apiKey = 'demo',
  secret = `${apiKey}-secret`,
): Promise<string> {
  const res = await call(sim, TOKEN_PATH, {
    headers: {
      Accept: 'application/json',
      Authorization: `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}`,
    },
  });
  if (res.status !== 200) throw new Error(`token for ${apiKey}: ${res.status} ${res.text}`);
  return res.json<{ jwt_token: string }>().jwt_token;
}

/** The query string as the sample writes it: space as +, colon as %3A. */
export function queryPath(params: Record<string, string | number>): string {
  return `${QUERY_PATH}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;
}

export function apiGet(
  sim: Pick<RunningSimulator, 'url'>,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<SimResponse> {
  return call(sim, path, { headers: { ...API_HEADERS, Authorization: `Bearer ${token}`, ...headers } });
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function utcWallClock(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
