import { describe, expect, it } from 'vitest';
import { localeCookie } from './locales';
import { acceptedLocale, pickLocale } from './negotiate';

describe('the language of a request', () => {
  it('takes the person’s choice first: a profile, then the switch’s cookie', () => {
    const asked = 'en-US,en;q=0.9';
    expect(pickLocale({ profile: 'ja', cookie: 'en', acceptLanguage: asked, fallback: 'en' })).toBe('ja');
    expect(pickLocale({ cookie: 'ja', acceptLanguage: asked, fallback: 'en' })).toBe('ja');
    expect(pickLocale({ cookie: 'en', acceptLanguage: 'ja-JP', fallback: 'ja' })).toBe('en');
  });

  it('ignores a cookie or profile naming no language of ours', () => {
    expect(pickLocale({ profile: 'fr', cookie: 'JA', acceptLanguage: 'en', fallback: 'ja' })).toBe('en');
    expect(pickLocale({ cookie: '', acceptLanguage: null, fallback: 'ja' })).toBe('ja');
  });

  it('then reads Accept-Language by its weights', () => {
    expect(acceptedLocale('ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7', 'en')).toBe('ja');
    expect(acceptedLocale('en-GB,en;q=0.9,ja;q=0.8', 'ja')).toBe('en');
    expect(acceptedLocale('en;q=0.4, ja;q=0.6', 'en')).toBe('ja');
    expect(acceptedLocale('fr-FR, de;q=0.9, en;q=0.5', 'ja')).toBe('en');
    // Equal weights: the first named.
    expect(acceptedLocale('en, ja', 'ja')).toBe('en');
    expect(acceptedLocale('JA-jp', 'en')).toBe('ja');
  });

  it('falls back to the default when the header names none of ours, anything, or nothing', () => {
    expect(acceptedLocale('fr-FR,de;q=0.9', 'ja')).toBe('ja');
    expect(acceptedLocale('*', 'ja')).toBe('ja');
    expect(acceptedLocale('', 'en')).toBe('en');
    expect(acceptedLocale(null, 'ja')).toBe('ja');
  });

  it('never picks a language the header refuses (q=0), nor reads a broken weight', () => {
    expect(acceptedLocale('*, ja;q=0', 'ja')).toBe('en');
    expect(acceptedLocale('ja;q=0, fr', 'ja')).toBe('en');
    expect(acceptedLocale('ja;q=abc, en;q=0.1', 'ja')).toBe('en');
    expect(acceptedLocale('ja;q=2', 'en')).toBe('en');
  });

  it('remembers the choice a year, for this site only', () => {
    expect(localeCookie('ja', false)).toBe('sms-locale=ja; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(localeCookie('en', true)).toContain('; Secure');
  });
});
