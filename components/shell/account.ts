/** Who is signed in, as the shell shows it: never the session id or the secret. */
export interface ShellAccount {
  apiKey: string;
  enterpriseId?: string;
}
