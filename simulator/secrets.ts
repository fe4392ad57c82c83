/**
 * Secrets changed at run time (`POST /__admin/secrets`): an account's secret rotated upstream, as
 * a person does after a leak. The new secret applies from the next token request; tokens issued
 * before stay valid until they expire (expire them too with the `expireTokens` fault).
 */
import type { Credential } from './accounts';

export class SecretOverrides {
  private readonly secrets = new Map<string, string>();

  /** The secret the token endpoint accepts for this account now. */
  secretOf(credential: Credential): string {
    return this.secrets.get(credential.apiKey) ?? credential.secret;
  }

  set(apiKey: string, secret: string): void {
    this.secrets.set(apiKey, secret);
  }

  /** Every account back to its secret of accounts.ts. */
  clear(): void {
    this.secrets.clear();
  }
}
