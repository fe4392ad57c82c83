import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { getConfig } from '../config';
import { createDatabase } from '@/tests/support/postgres';
import { openStore } from './open-store';

describe('opening the store from the configuration', () => {
  it('uses the SQLite file in DATA_DIR when DATABASE_URL is unset or empty', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-open-'));
    try {
      const config = getConfig({ DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' } as unknown as NodeJS.ProcessEnv);
      expect(config.DATABASE_URL).toBeUndefined();
      const store = await openStore(config);
      expect(store.dialect).toBe('sqlite');
      expect(fs.existsSync(path.join(dir, 'data', 'dashboard.sqlite'))).toBe(true);
      await store.close();
      await store.close(); // closing twice is harmless
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says DATA_DIR is not a folder when it names a file, or a path through one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-open-'));
    try {
      const file = path.join(dir, 'a-file');
      fs.writeFileSync(file, 'not a folder');
      for (const dataDir of [file, path.join(file, 'data')]) {
        const config = getConfig({ DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv);
        await expect(openStore(config)).rejects.toThrow(`The data folder ${dataDir} (DATA_DIR) is not a folder`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says a DATA_DIR where no folder can be made is one, at once (under /proc Node 20’s recursive mkdir never returned)', async () => {
    const dataDir = `/proc/sms-history-test-${process.pid}/data`;
    const config = getConfig({ DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv);
    await expect(openStore(config)).rejects.toThrow(`The data folder ${dataDir} (DATA_DIR) cannot be made there`);
  }, 5_000);

  it('makes the missing folders of DATA_DIR readable by this user only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-open-'));
    try {
      const store = await openStore(getConfig({ DATA_DIR: path.join(dir, 'a', 'b') } as unknown as NodeJS.ProcessEnv));
      await store.close();
      for (const folder of [path.join(dir, 'a'), path.join(dir, 'a', 'b')])
        expect(fs.statSync(folder).mode & 0o777, folder).toBe(0o700);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses PostgreSQL when DATABASE_URL is a postgres:// URL, and writes nothing to DATA_DIR', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-open-'));
    const database = await createDatabase(inject('postgresAdminUrl'));
    try {
      const config = getConfig({
        DATA_DIR: path.join(dir, 'data'),
        DATABASE_URL: database.url,
      } as unknown as NodeJS.ProcessEnv);
      const store = await openStore(config);
      try {
        expect(store.dialect).toBe('postgres');
        expect(await store.ledger.recordCall({ account: 'demo', at: 1, kind: 'query', cls: 'interactive' })).toBe(1);
        expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, without repeating it', () => {
    expect(() => getConfig({ DATABASE_URL: 'mysql://app:hunter2@db/app' } as unknown as NodeJS.ProcessEnv)).toThrow(
      /DATABASE_URL: must be a postgres:\/\/ URL/,
    );
    expect(() => getConfig({ DATABASE_URL: 'mysql://app:hunter2@db/app' } as unknown as NodeJS.ProcessEnv)).not.toThrow(
      /hunter2/,
    );
  });

  it('fails at start when PostgreSQL cannot be reached, never showing the password', async () => {
    const attempt = openStore({ DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/app', dataDir: '/nonexistent' });
    await expect(attempt).rejects.toThrow(/Cannot connect to the PostgreSQL database of DATABASE_URL/);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });
});
