/** The command line and SIM_* environment of `npm run sim`. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './limits';
import { parseCli, usage } from './options';

describe('parseCli', () => {
  it('gives the defaults with nothing set', () => {
    expect(parseCli([], {})).toEqual({ ok: true, help: false, options: { limits: DEFAULT_LIMITS, quiet: false } });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    const r = parseCli(
      [
        '--port',
        '0',
        '--host=0.0.0.0',
        '--seed',
        '9',
        '--days',
        '31',
        '--per-day=33000',
        '--token-ttl',
        '60',
        '--max-page-size',
        '50',
        '--page-size-over',
        'clamp',
        '--limit-in-flight',
        '2',
        '--limit-per-minute',
        '6',
        '--limit-per-hour',
        '20',
        '--limit-per-day',
        '200',
        '--latency',
        '25',
        '--token-latency=200',
        '--ip-rate-limits',
        '--quiet',
      ],
      {},
    );
    expect(r).toEqual({
      ok: true,
      help: false,
      options: {
        port: 0,
        host: '0.0.0.0',
        seed: 9,
        days: 31,
        perDay: 33000,
        tokenTtlSeconds: 60,
        maxPageSize: 50,
        pageSizeOver: 'clamp',
        latencyMs: 25,
        tokenLatencyMs: 200,
        quiet: true,
        limits: { maxInFlight: 2, perMinute: 6, perHour: 20, perDay: 200, ipRateLimits: true },
      },
    });
  });

  it('reads SIM_* variables; a flag wins over its variable', () => {
    const r = parseCli(['--port', '5000'], {
      SIM_PORT: '4999',
      SIM_SEED: '3',
      SIM_LIMIT_PER_MINUTE: '9',
      SIM_QUIET: '1',
      SIM_HOST: '::1',
      SIM_TOKEN_LATENCY: '150',
    });
    expect(r.ok && r.options).toMatchObject({
      port: 5000,
      seed: 3,
      quiet: true,
      host: '::1',
      tokenLatencyMs: 150,
      limits: { ...DEFAULT_LIMITS, perMinute: 9 },
    });
    expect(parseCli(['--token-latency', '40'], { SIM_TOKEN_LATENCY: '150' })).toMatchObject({
      ok: true,
      options: { tokenLatencyMs: 40 },
    });
  });

  it('counts the rate windows per account by default; --ip-rate-limits or SIM_IP_RATE_LIMITS=1 adds per IP', () => {
    expect(DEFAULT_LIMITS.ipRateLimits).toBe(false);
    expect(parseCli([], {})).toMatchObject({ ok: true, options: { limits: { ipRateLimits: false } } });
    expect(parseCli(['--ip-rate-limits'], {})).toMatchObject({
      ok: true,
      options: { limits: { ...DEFAULT_LIMITS, ipRateLimits: true } },
    });
    expect(parseCli([], { SIM_IP_RATE_LIMITS: '1' })).toMatchObject({
      ok: true,
      options: { limits: { ipRateLimits: true } },
    });
    expect(parseCli([], { SIM_IP_RATE_LIMITS: '0' })).toMatchObject({
      ok: true,
      options: { limits: { ipRateLimits: false } },
    });
    expect(parseCli(['--ip-rate-limits', '--no-limits'], {})).toMatchObject({ ok: true, options: { limits: false } });
  });

  it('turns limits off with --no-limits or SIM_NO_LIMITS', () => {
    expect(
      parseCli(['--no-limits'], {}).ok &&
        (parseCli(['--no-limits'], {}) as { options: { limits: unknown } }).options.limits,
    ).toBe(false);
    const env = parseCli([], { SIM_NO_LIMITS: 'true' });
    expect(env.ok && env.options.limits).toBe(false);
    const off = parseCli([], { SIM_NO_LIMITS: '0' });
    expect(off.ok && off.options.limits).toEqual(DEFAULT_LIMITS);
  });

  it('refuses unknown flags, missing and bad values', () => {
    for (const argv of [
      ['--nope'],
      ['--port'],
      ['--port', 'abc'],
      ['--days', '0'],
      ['--per-day', '-5'],
      ['--token-latency', '-1'],
      ['--page-size-over', 'shrink'],
      ['stray'],
    ]) {
      const r = parseCli(argv, {});
      expect(r.ok, argv.join(' ')).toBe(false);
    }
    expect(parseCli([], { SIM_PORT: 'x' }).ok).toBe(false);
  });

  it('documents every flag', () => {
    const text = usage();
    for (const flag of [
      '--port',
      '--host',
      '--seed',
      '--days',
      '--per-day',
      '--token-ttl',
      '--max-page-size',
      '--page-size-over',
      '--limit-in-flight',
      '--limit-per-minute',
      '--limit-per-hour',
      '--limit-per-day',
      '--no-limits',
      '--ip-rate-limits',
      '--latency',
      '--token-latency',
      'SIM_TOKEN_LATENCY',
      'SIM_IP_RATE_LIMITS',
      '--quiet',
    ]) {
      expect(text).toContain(flag);
    }
    expect(parseCli(['--help'], {})).toMatchObject({ ok: true, help: true });
  });
});
