import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, log, redact, redactText, type LogLevel } from './log';
import { SENSITIVE_FIELDS } from './cdr/fields';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZW1vIn0.kT3mXq1Zr0bY8wS5nV2pL6cH9dF4gJ7aE1uO0iQ3xYw';
const TRX = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';

function capture(level?: 'debug' | 'info' | 'warn' | 'error' | 'silent') {
  const lines: { level: LogLevel; line: string }[] = [];
  const logger = createLogger({
    level,
    sink: (l, line) => lines.push({ level: l, line }),
    now: () => new Date('2025-10-08T12:00:00Z'),
  });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l.line) as Record<string, unknown>) };
}

describe('redact: keys', () => {
  it('hides values under credential-like keys, whatever their spelling', () => {
    const out = redact({
      token: 'a',
      jwt_token: 'b',
      accessToken: 'c',
      secret: 'd',
      apiSecret: 'e',
      'x-api-secret': 'f',
      password: 'g',
      Authorization: 'Bearer h',
      cookie: 'i',
      'Set-Cookie': 'j',
      credentials: { apiKey: 'demo', secret: 'k' },
    });
    expect(JSON.stringify(out)).not.toMatch(/"[a-k]"|Bearer h/);
    expect(out).toMatchObject({ token: '[REDACTED]', credentials: '[REDACTED]' });
  });

  it('keeps metadata about a token (its expiry), and the api key', () => {
    expect(redact({ token_valid_until: '2025/10/08 12:15:00', tokenExpiresAt: 5, apiKey: 'demo' })).toEqual({
      token_valid_until: '2025/10/08 12:15:00',
      tokenExpiresAt: 5,
      apiKey: 'demo',
    });
  });

  it('hides every sensitive CDR field, nested anywhere', () => {
    const cdr = Object.fromEntries(SENSITIVE_FIELDS.map((k) => [k, `value of ${k}`]));
    const out = JSON.stringify(
      redact({ page: { _embedded: { cdrs: [{ ...cdr, trx_id: TRX, network_name: 'docomo' }] } } }),
    );
    for (const k of SENSITIVE_FIELDS) expect(out).not.toContain(`value of ${k}`);
    expect(out).toContain(TRX);
    expect(out).toContain('docomo');
    expect(SENSITIVE_FIELDS).toEqual(expect.arrayContaining(['to_address', 'message_body', 'submitted_by_user_email']));
  });

  it('hides the `da` filter and camelCase spellings of sensitive fields', () => {
    expect(redact({ da: '+81 90', toAddress: 'x', messageBody: 'y' })).toEqual({
      da: '[REDACTED]',
      toAddress: '[REDACTED]',
      messageBody: '[REDACTED]',
    });
  });

  it('leaves empty values visible (an absent secret is worth knowing)', () => {
    expect(redact({ secret: '', token: undefined })).toEqual({ secret: '', token: undefined });
  });
});

describe('redact: values that look sensitive, anywhere', () => {
  it('JWTs in free text', () => {
    expect(redactText(`got ${JWT} back`)).toBe('got [REDACTED:jwt] back');
    expect(redactText(`a.b.c and v1.2.3 and api.example.com`)).toBe('a.b.c and v1.2.3 and api.example.com');
  });

  it('Bearer/Basic credentials and key=value secrets in text', () => {
    const out = redactText(
      'Authorization: Bearer opaque123 / Basic ZGVtbzpzZWNyZXQ= / ?token=zzz&page=2 / {"jwt_token":"qqq"}',
    );
    for (const s of ['opaque123', 'ZGVtbzpzZWNyZXQ=', 'zzz', 'qqq']) expect(out).not.toContain(s);
    expect(out).toContain('page=2');
  });

  it('long mixed-case random strings (opaque tokens), but not hex ids', () => {
    expect(redactText('k=AbCdEf0123456789GhIjKl0123456789MnOp')).not.toContain('AbCdEf');
    expect(redactText(`trx ${TRX}`)).toBe(`trx ${TRX}`);
  });

  it('phone numbers: 7+ digits in a row, with or without +, inside words too', () => {
    expect(redactText('to 819012345678 ok')).toBe('to [REDACTED:phone] ok');
    expect(redactText('to +819012345678')).toBe('to [REDACTED:phone]');
    expect(redactText('tel:0312345678,')).toBe('tel:[REDACTED:phone],');
    expect(redactText('msisdn819012345678')).toBe('msisdn[REDACTED:phone]');
    // Seven digits are a (local) number; six are not.
    expect(redactText('call 1234567 now')).toBe('call [REDACTED:phone] now');
    expect(redactText('code 123456 sent')).toBe('code 123456 sent');
    expect(redactText('page 123456 of 2025-10-08T12:00:00.000+0000')).toBe(
      'page 123456 of 2025-10-08T12:00:00.000+0000',
    );
  });

  it('keeps a trx_id whole even when it holds a run of digits', () => {
    const id = 'a1234567890123456789012345678bcd';
    expect(redactText(id)).toBe(id);
  });

  it("keeps an export's id (a UUID) whole, whatever digits its parts hold", () => {
    for (const id of ['81234567-c8df-4798-a101-a077a5a6682a', '2cde3530-932b-4d9c-b3b2-2e1234567da6'])
      expect(redactText(`job ${id} done`)).toBe(`job ${id} done`);
    // A phone number beside it is still hidden.
    expect(redactText('81234567-c8df-4798-a101-a077a5a6682a to 819012345678')).toBe(
      '81234567-c8df-4798-a101-a077a5a6682a to [REDACTED:phone]',
    );
  });

  it('e-mail addresses', () => {
    expect(redactText('by hanako@example.jp')).toBe('by [REDACTED:email]');
  });

  it('in nested objects, arrays, Maps, Headers, URLs and keys', () => {
    const out = JSON.stringify(
      redact({
        a: [{ b: { c: `x ${JWT}` } }],
        m: new Map([['authorization', 'Bearer q']]),
        h: new Headers({ Authorization: `Bearer ${JWT}`, accept: 'application/json' }),
        u: new URL(`https://h.test/x?da=819012345678&token=${JWT}`),
        '819012345678': 1,
      }),
    );
    expect(out).not.toContain(JWT);
    expect(out).not.toContain('819012345678');
    expect(out).not.toContain('Bearer q');
    expect(out).toContain('application/json');
  });

  it('in Errors: message, stack, own fields and cause', () => {
    const cause = new Error(`inner ${JWT}`);
    const err = Object.assign(new Error(`outer 819012345678 ${JWT}`, { cause }), { kind: 'x', token: 'abc' });
    const out = redact(err) as Record<string, unknown>;
    const s = JSON.stringify(out);
    expect(s).not.toContain(JWT);
    expect(s).not.toContain('819012345678');
    expect(s).not.toContain('"abc"');
    expect(out).toMatchObject({ name: 'Error', kind: 'x', token: '[REDACTED]' });
    expect(out.stack).toEqual(expect.any(String));
  });

  it('survives cycles, depth, bigint, dates and binary', () => {
    const a: Record<string, unknown> = { n: 1n, d: new Date('2025-10-08T00:00:00Z'), b: Buffer.from(JWT) };
    a.self = a;
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 20; i++) deep = deep.x = {} as Record<string, unknown>;
    const out = redact({ a, root }) as { a: Record<string, unknown> };
    expect(out.a).toMatchObject({ n: '1', d: '2025-10-08T00:00:00.000Z', self: '[Circular]' });
    expect(String(out.a.b)).toMatch(/binary/);
    expect(JSON.stringify(out)).toContain('[Too deep]');
  });

  it('the same object twice side by side is not a cycle', () => {
    const shared = { v: 1 };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } });
  });
});

describe('logger', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('writes one JSON line per call with time, level, event and redacted fields', () => {
    const { logger, parsed } = capture('debug');
    logger.info('upstream.call', { path: '/x', token: JWT, note: `Bearer ${JWT}`, ms: 12 });
    expect(parsed()).toEqual([
      {
        time: '2025-10-08T12:00:00.000Z',
        level: 'info',
        event: 'upstream.call',
        path: '/x',
        token: '[REDACTED]',
        note: 'Bearer [REDACTED]',
        ms: 12,
      },
    ]);
  });

  it('an Error as a field is logged scrubbed', () => {
    const { logger, lines } = capture('debug');
    logger.error('failed', { err: new Error(`upstream said ${JWT}`) });
    expect(lines[0]!.line).not.toContain(JWT);
    expect(lines[0]!.line).toContain('upstream said');
  });

  it('fields cannot overwrite time/level/event', () => {
    const { logger, parsed } = capture('debug');
    logger.warn('e', { level: 'fake', event: 'other' });
    expect(parsed()[0]).toMatchObject({ level: 'warn', event: 'e', field_level: 'fake', field_event: 'other' });
  });

  it('child loggers carry their bindings', () => {
    const { logger, parsed } = capture('debug');
    logger.child({ requestId: 'r1', secret: 's' }).info('x');
    expect(parsed()[0]).toMatchObject({ requestId: 'r1', secret: '[REDACTED]' });
  });

  it('the event name is scrubbed too', () => {
    const { logger, lines } = capture('debug');
    logger.info(`token ${JWT}`);
    expect(lines[0]!.line).not.toContain(JWT);
  });

  it('levels: below the threshold is dropped; silent drops all', () => {
    const { logger, lines } = capture('warn');
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    logger.error('d');
    expect(lines.map((l) => l.level)).toEqual(['warn', 'error']);
    const silent = capture('silent');
    silent.logger.error('x');
    expect(silent.lines).toHaveLength(0);
  });

  it('reads LOG_LEVEL (default info) and writes info to stdout, warn/error to stderr', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('LOG_LEVEL', '');
    log.debug('hidden');
    log.info('shown', { password: 'p' });
    log.error('bad');
    expect(out).toHaveBeenCalledTimes(1);
    expect(String(out.mock.calls[0]![0])).toMatch(/"event":"shown".*"password":"\[REDACTED\]"/);
    expect(String(out.mock.calls[0]![0]).endsWith('\n')).toBe(true);
    expect(err).toHaveBeenCalledTimes(1);
    vi.stubEnv('LOG_LEVEL', 'silent');
    log.error('nothing');
    expect(err).toHaveBeenCalledTimes(1);
    vi.stubEnv('LOG_LEVEL', 'DEBUG');
    log.debug('now shown');
    expect(out).toHaveBeenCalledTimes(2);
    vi.stubEnv('LOG_LEVEL', 'toString');
    log.debug('unknown level means info');
    expect(out).toHaveBeenCalledTimes(2);
  });

  it('a failing sink or an unserialisable field never throws at the caller', () => {
    const logger = createLogger({
      level: 'debug',
      sink: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => logger.info('x', { a: 1 })).not.toThrow();
  });
});

describe('redactText keeps ordinary prose readable', () => {
  it('"token: expired" and "Authorization: the token has expired" survive', () => {
    expect(redactText('token: expired')).toBe('token: expired');
    expect(redactText('Authorization: the token has expired')).toBe('Authorization: the token has expired');
    expect(redactText('Authorization: must be "Bearer <token>"')).toBe('Authorization: must be "Bearer <token>"');
  });
  it('but a credential after a colon does not', () => {
    expect(redactText('secret: hunter2')).toBe('secret: [REDACTED]');
    expect(redactText('token: abcdefghijk')).toBe('token: [REDACTED]');
    expect(redactText('?token=abc')).toBe('?token=[REDACTED]');
  });
});
