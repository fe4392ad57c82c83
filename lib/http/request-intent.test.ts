import { describe, expect, it } from 'vitest';
import { crossSiteRefusal, type RequestSource } from './request-intent';

const OWN = ['http://localhost:3000', 'https://sms.example.com'];

describe('crossSiteRefusal', () => {
  const cases: [string, RequestSource, boolean][] = [
    // [what, headers, refused]
    ['a script: neither header', { secFetchSite: null, origin: null }, false],
    ['our page, same-origin GET (no Origin)', { secFetchSite: 'same-origin', origin: null }, false],
    ['our page, same-origin POST', { secFetchSite: 'same-origin', origin: 'http://localhost:3000' }, false],
    ['our public origin behind a proxy', { secFetchSite: 'same-origin', origin: 'https://sms.example.com' }, false],
    ['typed into the address bar', { secFetchSite: 'none', origin: null }, false],
    ['another site: link, <img>, no-cors fetch', { secFetchSite: 'cross-site', origin: null }, true],
    ['another site: cors fetch or form', { secFetchSite: 'cross-site', origin: 'https://evil.example' }, true],
    [
      'a sibling origin of our site (another port)',
      { secFetchSite: 'same-site', origin: 'http://localhost:4000' },
      true,
    ],
    ['a sibling origin, no Origin sent', { secFetchSite: 'same-site', origin: null }, true],
    ['case and spaces do not matter', { secFetchSite: ' Cross-Site ', origin: null }, true],
    ['an unknown Sec-Fetch-Site value', { secFetchSite: 'elsewhere', origin: null }, true],
    ['an old browser: foreign Origin, no Sec-Fetch-Site', { secFetchSite: null, origin: 'https://evil.example' }, true],
    ['a sandboxed or opaque origin', { secFetchSite: null, origin: 'null' }, true],
    ['same host, other scheme', { secFetchSite: null, origin: 'https://localhost:3000' }, true],
    ['same host, other port', { secFetchSite: null, origin: 'http://localhost:3001' }, true],
    ['Origin contradicting same-origin', { secFetchSite: 'same-origin', origin: 'https://evil.example' }, true],
    ['an unreadable Origin', { secFetchSite: null, origin: 'not a url' }, true],
  ];

  it.each(cases)('%s', (_what, source, refused) => {
    const reason = crossSiteRefusal(source, OWN);
    if (refused) expect(reason).toEqual(expect.any(String));
    else expect(reason).toBeNull();
  });

  it('says why', () => {
    expect(crossSiteRefusal({ secFetchSite: 'cross-site', origin: null }, OWN)).toBe('Sec-Fetch-Site: cross-site');
    expect(crossSiteRefusal({ secFetchSite: null, origin: 'https://evil.example' }, OWN)).toBe(
      'Origin is not this dashboard',
    );
  });
});
