/**
 * What the sign-in page may say about a failed sign-in. next-auth carries the error to the page as
 * `/signin?error=<value>`, a value anyone can put in a link, so the page never shows that value:
 * only the text this table holds for it. `authorize` (lib/auth/options.ts) throws these codes, never
 * sentences; next-auth adds its own codes; any other value gets the generic text.
 *
 * A code that needs a number (a wait in seconds) travels as `Code:<digits>`, strictly: anything else
 * after the code makes the whole value unknown.
 */
import { formatDuration } from '../i18n/format';

type Text = string | ((seconds: number | undefined) => string);

const TEXTS = {
  // Ours, thrown by `authorize`.
  InvalidInput: 'Check the API key, secret and enterprise ID: one is empty, too long or holds characters it may not.',
  CredentialsRejected: 'The Report API did not accept this API key and secret. Check both and try again.',
  UpstreamBusy: 'The Report API is busy with another call. Try again in a few seconds.',
  // A wait that is known: the token requests' cap for this minute, or the Report API's own 429.
  UpstreamHolding: (seconds) =>
    seconds === undefined
      ? 'Sign-ins are waiting for the Report API\u2019s limits. Try again in a minute.'
      : `Sign-ins are waiting for the Report API\u2019s limits. Try again in ${seconds < 60 ? `${Math.max(1, seconds)} s` : formatDuration(seconds * 1000)}.`,
  UpstreamUnreachable: 'The Report API cannot be reached right now. Try again in a minute.',
  SignInBroken: 'Sign-in failed on our side. Try again; if it persists, tell the team.',
  CredentialsRefused:
    'The Report API no longer accepts the secret this dashboard held for your API key (it was probably changed), so every session of the key here was signed out. Sign in with the current secret.',
  SignedOutEverywhere: 'You signed out everywhere: every session of this API key has ended.',
  // Team mode (lib/team): sign-in with the organisation's identity provider.
  NoTeamRole:
    'Your account at the identity provider is in none of the groups that may use this dashboard (its admin, support or viewer groups). Ask whoever manages those groups to add you, then sign in again.',
  Suspended: 'An admin of this dashboard suspended your access. Ask them to restore it.',
  RoleRemoved:
    'The identity provider no longer puts you in a group that may use this dashboard, so you were signed out. Ask whoever manages those groups if that is a mistake.',
  RoleUnconfirmed:
    'Your role could not be read again from the identity provider (your sign-in there ended), so you were signed out. Sign in again.',
  IdentityProviderUnreachable: 'The identity provider cannot be reached right now. Try again in a minute.',
  TooManyAttempts: (seconds) =>
    seconds === undefined
      ? 'Too many sign-in attempts. Try again in a few minutes.'
      : `Too many sign-in attempts. Try again in ${seconds < 60 ? `${seconds} s` : formatDuration(seconds * 1000)}.`,
  // next-auth's own (a credentials sign-in's, and an OpenID Connect one's; the e-mail ones cannot happen).
  CredentialsSignin: 'Sign-in failed. Check the API key and secret.',
  OAuthSignin: 'The sign-in with the identity provider could not start. Try again; if it persists, tell the team.',
  OAuthCallback:
    'The identity provider\u2019s answer could not be checked (it may have taken too long). Sign in again.',
  OAuthCreateAccount: 'Sign-in failed on our side. Try again; if it persists, tell the team.',
  OAuthAccountNotLinked: 'Sign-in failed on our side. Try again; if it persists, tell the team.',
  SessionRequired: 'Sign in to see that page.',
  Callback: 'Sign-in failed on our side. Try again; if it persists, tell the team.',
  Configuration: 'Sign-in is not set up correctly on this server. Tell the team.',
  AccessDenied: 'This account may not sign in here.',
  Default: 'Sign-in did not complete. Try again.',
} satisfies Record<string, Text>;

export type SignInErrorCode = keyof typeof TEXTS;

/** Codes that carry a number of seconds. */
type TimedCode = { [K in SignInErrorCode]: (typeof TEXTS)[K] extends string ? never : K }[SignInErrorCode];

const VALUE = /^([A-Za-z]{1,40})(?::(\d{1,9}))?$/;

/** The value `authorize` throws (next-auth puts it in `?error=`). */
export function signInErrorCode(code: Exclude<SignInErrorCode, TimedCode>): string;
export function signInErrorCode(code: TimedCode, seconds: number): string;
export function signInErrorCode(code: SignInErrorCode, seconds?: number): string {
  return seconds === undefined ? code : `${code}:${Math.max(0, Math.ceil(seconds))}`;
}

/** The text for an `?error=` value; the generic text for anything this table does not hold. */
export function signInErrorText(value: string): string {
  const match = VALUE.exec(value);
  const code = match?.[1];
  if (!code || !Object.hasOwn(TEXTS, code)) return TEXTS.Default;
  const text: Text = TEXTS[code as SignInErrorCode];
  if (typeof text === 'string') return match[2] === undefined ? text : TEXTS.Default;
  return text(match[2] === undefined ? undefined : Number(match[2]));
}
