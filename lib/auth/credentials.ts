/**
 * Validation of the sign-in form, shared by the page (messages before a round trip) and the server.
 */
export interface SignInInput {
  apiKey: string;
  apiSecret: string;
  enterpriseId: string;
}

const KEY = /^[A-Za-z0-9._-]{1,64}$/;

export function signInProblems(input: SignInInput): Partial<Record<keyof SignInInput, string>> {
  const problems: Partial<Record<keyof SignInInput, string>> = {};
  if (input.apiKey.trim() === '') problems.apiKey = 'Enter your Report API key.';
  else if (!KEY.test(input.apiKey.trim()))
    problems.apiKey = 'An API key has up to 64 letters, digits, ".", "_" or "-".';
  if (input.apiSecret === '') problems.apiSecret = 'Enter the secret of that API key.';
  else if (input.apiSecret.length > 256) problems.apiSecret = 'That secret is too long (at most 256 characters).';
  if (input.enterpriseId.trim() !== '' && !KEY.test(input.enterpriseId.trim())) {
    problems.enterpriseId =
      'An enterprise ID has up to 64 letters, digits, ".", "_" or "-"; leave it empty if your account has none.';
  }
  return problems;
}
