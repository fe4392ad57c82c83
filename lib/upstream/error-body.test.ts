import { describe, expect, it } from 'vitest';
import { extractUpstreamMessage } from './error-body';

describe('extractUpstreamMessage', () => {
  it('finds the message in JSON of several shapes', () => {
    expect(extractUpstreamMessage('{"message":"m"}', 'application/json')).toBe('m');
    expect(
      extractUpstreamMessage('{"error":"invalid_grant","error_description":"bad secret"}', 'application/json'),
    ).toBe('bad secret');
    expect(extractUpstreamMessage('{"errors":[{"field":"page","defaultMessage":"must be <= 1000"}]}', null)).toBe(
      'page: must be <= 1000',
    );
    expect(extractUpstreamMessage('"just a string"', 'application/json')).toBe('just a string');
  });

  it('reads text that claims to be JSON but is not as text', () => {
    expect(extractUpstreamMessage('Service down', 'application/json')).toBe('Service down');
  });

  it('takes an HTML title (or h1), entities decoded, tags dropped', () => {
    expect(extractUpstreamMessage('<html><head><title>Bad &amp; worse</title></head></html>', 'text/html')).toBe(
      'Bad & worse',
    );
    expect(extractUpstreamMessage('<html><body><h1>Gateway <b>Timeout</b></h1></body></html>', 'text/html')).toBe(
      'Gateway Timeout',
    );
    expect(extractUpstreamMessage('<html><body>nothing</body></html>', 'text/html')).toBeUndefined();
  });

  it('blanks the known secrets and anything shaped like a credential', () => {
    const out = extractUpstreamMessage('bad key s3cr3t-value; token=abc123; Bearer xyz', 'text/plain', [
      's3cr3t-value',
    ]);
    expect(out).not.toContain('s3cr3t-value');
    expect(out).not.toContain('abc123');
    expect(out).not.toContain('xyz');
  });

  it('is one line and at most 300 characters', () => {
    const out = extractUpstreamMessage(`a\r\nb\tc ${'z'.repeat(1000)}`, 'text/plain')!;
    expect(out.startsWith('a b c ')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(300);
  });
});
