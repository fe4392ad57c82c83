import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { signInError, signInErrorCode } from './sign-in-errors';

/** What the sign-in page shows for an `?error=` value, in English (the other language: below). */
const signInErrorText = (value: string) => translate('en', signInError(value));

const GENERIC = 'Sign-in did not complete. Try again.';

describe('sign-in errors', () => {
  it('keeps the wording of the messages people already see', () => {
    expect(signInErrorText(signInErrorCode('CredentialsRejected'))).toBe(
      'The Report API did not accept this API key and secret. Check both and try again.',
    );
    expect(signInErrorText(signInErrorCode('UpstreamBusy'))).toBe(
      'The Report API is busy with another call. Try again in a few seconds.',
    );
    expect(signInErrorText(signInErrorCode('UpstreamHolding', 42.3))).toBe(
      'Sign-ins are waiting for the Report API\u2019s limits. Try again in 43 s.',
    );
    expect(signInErrorText(signInErrorCode('UpstreamHolding', 600))).toMatch(
      /^Sign-ins are waiting for the Report API\u2019s limits\. Try again in 10 min\.$/,
    );
    expect(signInErrorText(signInErrorCode('UpstreamUnreachable'))).toBe(
      'The Report API cannot be reached right now. Try again in a minute.',
    );
    expect(signInErrorText(signInErrorCode('SignInBroken'))).toBe(
      'Sign-in failed on our side. Try again; if it persists, tell the team.',
    );
    expect(signInErrorText('CredentialsSignin')).toBe('Sign-in failed. Check the API key and secret.');
  });

  it('explains why every session ended', () => {
    expect(signInErrorText('CredentialsRefused')).toContain('no longer accepts the secret');
    expect(signInErrorText('SignedOutEverywhere')).toBe(
      'You signed out everywhere: every session of this API key has ended, and no secret of it is kept here any more (a local history that kept copying while you were signed out waits for your next sign-in).',
    );
  });

  it("maps next-auth's own codes", () => {
    expect(signInErrorText('SessionRequired')).toBe('Sign in to see that page.');
    expect(signInErrorText('Callback')).toContain('on our side');
    expect(signInErrorText('Default')).toBe(GENERIC);
  });

  it('never shows a value it does not know', () => {
    for (const value of [
      'Your account is locked. Call +1 555 0100 to unlock it.',
      'Enter your secret at https://evil.example',
      '<b>bold</b>',
      '',
      'toString',
      '__proto__',
      'constructor',
      'credentialssignin',
    ]) {
      expect(signInErrorText(value)).toBe(GENERIC);
    }
  });

  it('shows a wait carried as Code:<digits> as a duration', () => {
    expect(signInErrorCode('TooManyAttempts', 125)).toBe('TooManyAttempts:125');
    expect(signInErrorText('TooManyAttempts:125')).toBe('Too many sign-in attempts. Try again in 2 min 5 s.');
    expect(signInErrorText('TooManyAttempts:45')).toBe('Too many sign-in attempts. Try again in 45 s.');
    expect(signInErrorText('TooManyAttempts:4')).toBe('Too many sign-in attempts. Try again in 4 s.');
    expect(signInErrorText('TooManyAttempts:3600')).toBe('Too many sign-in attempts. Try again in 1 h.');
    expect(signInErrorText('TooManyAttempts')).toBe('Too many sign-in attempts. Try again in a few minutes.');
    expect(signInErrorCode('TooManyAttempts', 4.2)).toBe('TooManyAttempts:5');
  });

  it('reads the number strictly', () => {
    for (const value of [
      'TooManyAttempts:',
      'TooManyAttempts:1e3',
      'TooManyAttempts:-5',
      'TooManyAttempts:12 then call us',
      'TooManyAttempts:1:2',
      'TooManyAttempts: 12',
      'TooManyAttempts:1234567890',
    ]) {
      expect(signInErrorText(value), value).toBe(GENERIC);
    }
    // A number on a code that takes none is not that code.
    expect(signInErrorText('CredentialsRejected:30')).toBe(GENERIC);
  });

  it('says the same in Japanese, the wait in Japanese units', () => {
    expect(translate('ja', signInError('TooManyAttempts:125'))).toBe(
      'ログインの試行回数が多すぎます。2分5秒後にもう一度お試しください。',
    );
    expect(translate('ja', signInError('UpstreamHolding:42'))).toContain('42秒後に');
    expect(translate('ja', signInError('<b>bold</b>'))).toBe('ログインが完了しませんでした。もう一度お試しください。');
  });
});
