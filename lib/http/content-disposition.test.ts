import { describe, expect, it } from 'vitest';
import { asciiFileName, attachmentDisposition } from './content-disposition';

/** The name a browser saves under: filename* decoded, as RFC 6266 §4.3 has it preferred. */
function savedAs(header: string): string {
  const ext = /filename\*=UTF-8''([^;]+)/.exec(header)?.[1];
  return ext ? decodeURIComponent(ext) : (/filename="([^"]*)"/.exec(header)?.[1] ?? '');
}

describe('the Content-Disposition of a download', () => {
  it('carries a Japanese name whole in filename*, and an ASCII one in filename', () => {
    const name = 'sms_2026-11-18T0000_2026-11-26T0000_JST_client-reference-注文_p1.csv';
    const header = attachmentDisposition(name);
    expect(header).toBe(
      `attachment; filename="sms_2026-11-18T0000_2026-11-26T0000_JST_client-reference-___p1.csv"; filename*=UTF-8''sms_2026-11-18T0000_2026-11-26T0000_JST_client-reference-%E6%B3%A8%E6%96%87_p1.csv`,
    );
    expect(savedAs(header)).toBe(name);
    // A header value must be ISO-8859-1: this one is plain ASCII, which a Response takes.
    expect(() => new Response('', { headers: { 'Content-Disposition': header } })).not.toThrow();
    expect(() => new Response('', { headers: { 'Content-Disposition': `attachment; filename="${name}"` } })).toThrow();
  });

  it('encodes what RFC 8187 does not allow raw, and keeps quotes out of the ASCII name', () => {
    const header = attachmentDisposition(`it's (a) "name"*.csv`);
    expect(header).toContain(`filename*=UTF-8''it%27s%20%28a%29%20%22name%22%2A.csv`);
    expect(header).toContain(`filename="it's (a) _name_*.csv"`);
    expect(savedAs(header)).toBe(`it's (a) "name"*.csv`);
    expect(asciiFileName('sms_UTC_q-認証コード.csv')).toBe('sms_UTC_q-_____.csv');
  });
});
