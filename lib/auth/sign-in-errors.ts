/**
 * What the sign-in page may say about a failed sign-in. next-auth carries the error to the page as
 * `/signin?error=<value>`, a value anyone can put in a link, so the page never shows that value:
 * only the words this table holds for it. `authorize` (lib/auth/options.ts) throws these codes, never
 * sentences; next-auth adds its own codes; any other value gets the generic text.
 *
 * A code that needs a number (a wait in seconds) travels as `Code:<digits>`, strictly: anything else
 * after the code makes the whole value unknown.
 */
import { msg, type Message } from '../i18n/message';

/**
 * The codes, and whether each carries a wait (in seconds): their words are the catalogues'
 * (messages/<locale>/signin.json, `errors.<Code>`, and `errors.<Code>For` with the wait).
 */
const CODES = {
  // Ours, thrown by `authorize`.
  InvalidInput: false,
  CredentialsRejected: false,
  UpstreamBusy: false,
  // A wait that is known: the token requests' cap for this minute, or the Report API's own 429.
  UpstreamHolding: true,
  UpstreamUnreachable: false,
  SignInBroken: false,
  CredentialsRefused: false,
  SignedOutEverywhere: false,
  // Team mode (lib/team): sign-in with the organisation's identity provider, and why a person's session ended.
  NoTeamRole: false,
  Suspended: false,
  RoleRemoved: false,
  RoleUnconfirmed: false,
  IdentityProviderUnreachable: false,
  TooManyAttempts: true,
  // next-auth's own (a credentials sign-in's, and an OpenID Connect one's; the e-mail ones cannot happen).
  CredentialsSignin: false,
  OAuthSignin: false,
  OAuthCallback: false,
  OAuthCreateAccount: false,
  OAuthAccountNotLinked: false,
  SessionRequired: false,
  Callback: false,
  Configuration: false,
  AccessDenied: false,
  Default: false,
} as const;

export type SignInErrorCode = keyof typeof CODES;

/** Codes that carry a number of seconds. */
type TimedCode = { [K in SignInErrorCode]: (typeof CODES)[K] extends true ? K : never }[SignInErrorCode];

const VALUE = /^([A-Za-z]{1,40})(?::(\d{1,9}))?$/;

/** The value `authorize` throws (next-auth puts it in `?error=`). */
export function signInErrorCode(code: Exclude<SignInErrorCode, TimedCode>): string;
export function signInErrorCode(code: TimedCode, seconds: number): string;
export function signInErrorCode(code: SignInErrorCode, seconds?: number): string {
  return seconds === undefined ? code : `${code}:${Math.max(0, Math.ceil(seconds))}`;
}

/** The words for an `?error=` value; the generic ones for anything this table does not hold. */
export function signInError(value: string): Message {
  const match = VALUE.exec(value);
  const code = match?.[1];
  if (!code || !Object.hasOwn(CODES, code)) return msg('signin.errors.Default');
  const known = code as SignInErrorCode;
  const seconds = match[2] === undefined ? undefined : Number(match[2]);
  if (!CODES[known]) return seconds === undefined ? msg(`signin.errors.${known}`) : msg('signin.errors.Default');
  return seconds === undefined
    ? msg(`signin.errors.${known}`)
    : msg(`signin.errors.${known as TimedCode}For`, { wait: { seconds } });
}
