import 'server-only';
/**
 * Server-side sessions: which account a browser session signed in as, and the API secret needed to
 * renew the upstream's 15-minute token without asking the person again. The secret is stored
 * encrypted (lib/auth/secret-box.ts) and deleted at sign-out or when the session expires; the
 * browser only ever holds a session id inside next-auth's encrypted cookie.
 */
import type { Db } from './db';

export interface VaultEntry {
  sid: string;
  apiKey: string;
  enterpriseId: string | null;
  /** The sealed API secret (never the plain one). */
  sealedSecret: string;
  createdAt: number;
  expiresAt: number;
}

export interface VaultStore {
  put(entry: VaultEntry): Promise<void>;
  get(sid: string, now: number): Promise<VaultEntry | null>;
  delete(sid: string): Promise<void>;
  /** Sessions still open for an API key (the upstream token is shared between them). */
  countForApiKey(apiKey: string, now: number): Promise<number>;
  prune(now: number): Promise<void>;
}

export function createSqliteVault(db: Db): VaultStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS sessions (
      sid TEXT PRIMARY KEY,
      api_key TEXT NOT NULL,
      enterprise_id TEXT,
      sealed_secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_api_key ON sessions (api_key);
  `);
  const put = db.prepare(
    'INSERT OR REPLACE INTO sessions (sid, api_key, enterprise_id, sealed_secret, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const get = db.prepare('SELECT * FROM sessions WHERE sid = ? AND expires_at > ?');
  const del = db.prepare('DELETE FROM sessions WHERE sid = ?');
  const count = db.prepare('SELECT count(*) FROM sessions WHERE api_key = ? AND expires_at > ?').pluck();
  const prune = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  type Row = { sid: string; api_key: string; enterprise_id: string | null; sealed_secret: string; created_at: number; expires_at: number };
  return {
    async put(e) {
      put.run(e.sid, e.apiKey, e.enterpriseId, e.sealedSecret, e.createdAt, e.expiresAt);
    },
    async get(sid, now) {
      const row = get.get(sid, now) as Row | undefined;
      return row
        ? { sid: row.sid, apiKey: row.api_key, enterpriseId: row.enterprise_id, sealedSecret: row.sealed_secret, createdAt: row.created_at, expiresAt: row.expires_at }
        : null;
    },
    async delete(sid) {
      del.run(sid);
    },
    async countForApiKey(apiKey, now) {
      return count.get(apiKey, now) as number;
    },
    async prune(now) {
      prune.run(now);
    },
  };
}
