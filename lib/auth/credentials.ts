/**
 * Validation of the sign-in form, shared by the page (messages before a round trip) and the server.
 */
import { msg, type Message } from '../i18n/message';

export interface SignInInput {
  apiKey: string;
  apiSecret: string;
  enterpriseId: string;
}

const KEY = /^[A-Za-z0-9._-]{1,64}$/;

export function signInProblems(input: SignInInput): Partial<Record<keyof SignInInput, Message>> {
  const problems: Partial<Record<keyof SignInInput, Message>> = {};
  if (input.apiKey.trim() === '') problems.apiKey = msg('signin.problems.apiKeyMissing');
  else if (!KEY.test(input.apiKey.trim())) problems.apiKey = msg('signin.problems.apiKeyInvalid');
  if (input.apiSecret === '') problems.apiSecret = msg('signin.problems.apiSecretMissing');
  else if (input.apiSecret.length > 256) problems.apiSecret = msg('signin.problems.apiSecretTooLong');
  if (input.enterpriseId.trim() !== '' && !KEY.test(input.enterpriseId.trim()))
    problems.enterpriseId = msg('signin.problems.enterpriseIdInvalid');
  return problems;
}
