/**
 * The README's configuration table must name every environment variable the dashboard reads, so a
 * person deploying it never meets an undocumented knob.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, getConfig } from './config';
import { configWarnings } from './governor/configured-limits';
import { LOCALES } from './i18n/locales';

const root = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(rel);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

function documented(): Set<string> {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Decisions'));
  return new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string));
}

describe('configuration', () => {
  it('documents every variable of the schema and every process.env read in the app', () => {
    const readHere = new Set<string>(Object.keys(configSchema.shape));
    const files = [
      ...sourceFiles('app'),
      ...sourceFiles('lib'),
      ...sourceFiles('components'),
      'next.config.mjs',
      'scripts/demo.ts',
    ];
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)) readHere.add(m[1] as string);
    }
    // Set by Node/Next themselves, not by a person deploying the dashboard.
    for (const builtIn of ['NODE_ENV', 'NEXT_RUNTIME']) readHere.delete(builtIn);
    const missing = [...readHere].filter((name) => !documented().has(name));
    expect(missing).toEqual([]);
  });

  it('names the variable and the problem when a value is wrong', () => {
    expect(() => getConfig({ UPSTREAM_LIMIT_PER_MINUTE: 'three' } as unknown as NodeJS.ProcessEnv)).toThrow(
      /UPSTREAM_LIMIT_PER_MINUTE/,
    );
    expect(() => getConfig({ UPSTREAM_BASE_URL: 'not a url' } as unknown as NodeJS.ProcessEnv)).toThrow(
      /UPSTREAM_BASE_URL/,
    );
  });

  it('says what was typed, what is wrong in words, and a good value', () => {
    const refused = (env: Record<string, string>) => {
      try {
        getConfig(env as unknown as NodeJS.ProcessEnv);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ UPSTREAM_TIMEOUT_MS: 'twenty' })).toContain(
      'UPSTREAM_TIMEOUT_MS (set to "twenty"): must be a number; its default is 20000',
    );
    expect(refused({ UPSTREAM_LIMIT_PER_MINUTE: '2.5' })).toContain(
      'UPSTREAM_LIMIT_PER_MINUTE (set to "2.5"): must be a whole number; its default is 3',
    );
    // The scheme forgotten: zod's url() alone took `localhost:` for one.
    expect(refused({ UPSTREAM_BASE_URL: 'localhost:4501' })).toContain(
      'UPSTREAM_BASE_URL (set to "localhost:4501"): must be an http:// or https:// URL with its scheme',
    );
    expect(refused({ NEXTAUTH_URL: 'localhost:3505' })).toContain(
      'NEXTAUTH_URL (set to "localhost:3505"): must be an http:// or https:// URL with its scheme, e.g. https://sms.example.com',
    );
    expect(refused({ HISTORY_DEFAULT_DAYS: '500' })).toContain(
      'HISTORY_DEFAULT_DAYS (set to "500"): must not be more than HISTORY_MAX_DAYS',
    );
    expect(refused({ HISTORY_DEFAULT_DAYS: '500', HISTORY_MAX_DAYS: '500' })).toBe('accepted');
    // A secret is named, never repeated.
    expect(refused({ NEXTAUTH_SECRET: 'short-secret' })).not.toContain('short-secret');
    expect(refused({ UPSTREAM_BASE_URL: 'user:pa55word@report.example.com' })).not.toContain('pa55word');
    expect(
      refused({ NEXTAUTH_URL: 'http://localhost:3000', UPSTREAM_BASE_URL: 'https://report.example.com/api/' }),
    ).toBe('accepted');
  });

  it('reads a variable set to nothing as unset, not as 0', () => {
    const c = getConfig({
      CACHE_SETTLED_AFTER_HOURS: '',
      EXPORT_RETENTION_DAYS: ' ',
      HISTORY_MAX_SHARE: '',
      UPSTREAM_IP_LIMIT_PER_HOUR: '',
      NEXTAUTH_SECRET: '',
      UPSTREAM_BASE_URL: '',
      DATA_DIR: '',
      LOG_LEVEL: '',
    } as unknown as NodeJS.ProcessEnv);
    expect([
      c.CACHE_SETTLED_AFTER_HOURS,
      c.EXPORT_RETENTION_DAYS,
      c.HISTORY_MAX_SHARE,
      c.UPSTREAM_IP_LIMIT_PER_HOUR,
      c.NEXTAUTH_SECRET,
    ]).toEqual([72, 7, 0.6, undefined, undefined]);
    expect([c.UPSTREAM_BASE_URL, c.DATA_DIR, c.LOG_LEVEL]).toEqual(['http://127.0.0.1:4010', 'data', 'info']);
  });

  it('refuses a NEXTAUTH_SECRET too short to protect the sessions and the stored secrets', () => {
    expect(() => getConfig({ NEXTAUTH_SECRET: 'x' } as unknown as NodeJS.ProcessEnv)).toThrow(
      /NEXTAUTH_SECRET: must be at least 32 characters.*openssl rand -base64 32/,
    );
  });

  it('warns at start-up of settings that together stop exports or the copy for good', () => {
    const base = { NEXTAUTH_SECRET: 'x'.repeat(32) };
    const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
    expect(configWarnings(getConfig(env(base)))).toEqual([]);
    expect(configWarnings(getConfig(env({ ...base, UPSTREAM_BACKGROUND_RESERVE: '50' })))).toEqual([
      "Exports and the local history's sync can never make a call: UPSTREAM_BACKGROUND_RESERVE (50) keeps every call of an hour for people. Lower it below the limits of each window.",
    ]);
    expect(configWarnings(getConfig(env({ ...base, HISTORY_MAX_SHARE: '0.05' })))).toEqual([
      "The local history's sync can never make a call: HISTORY_MAX_SHARE (0.05) of the calls of a minute is less than one. Raise it, or the limits.",
    ]);
  });

  it('serves the demo with no variable set', () => {
    const c = getConfig({} as unknown as NodeJS.ProcessEnv);
    expect(c.UPSTREAM_BASE_URL).toBe('http://127.0.0.1:4010');
    expect([
      c.UPSTREAM_LIMIT_PER_MINUTE,
      c.UPSTREAM_LIMIT_PER_HOUR,
      c.UPSTREAM_LIMIT_PER_DAY,
      c.UPSTREAM_MAX_IN_FLIGHT,
    ]).toEqual([3, 10, 100, 1]);
  });

  it('answers in Japanese by default, and takes only the languages the catalogues hold', () => {
    const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
    expect(getConfig(env({})).DEFAULT_LOCALE).toBe('ja');
    expect(getConfig(env({ DEFAULT_LOCALE: '' })).DEFAULT_LOCALE).toBe('ja');
    // Every language of the catalogues is a value; the type checker holds the other way (a Locale).
    for (const locale of LOCALES) expect(getConfig(env({ DEFAULT_LOCALE: locale })).DEFAULT_LOCALE).toBe(locale);
    expect(() => getConfig(env({ DEFAULT_LOCALE: 'fr' }))).toThrow(/DEFAULT_LOCALE \(set to "fr"\).*its default is ja/);
  });
});
