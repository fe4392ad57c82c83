/**
 * A cookie jar for tests that drive a sign-in through redirects between two servers by hand (the
 * dashboard's route handlers, the identity provider over HTTP): what each Set-Cookie said, sent
 * back as a Cookie header. Enough for host-only cookies of one origin each; not a browser.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the Set-Cookie headers of an answer (an expired or emptied cookie is dropped). */
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v] = a.trim().split('=');
        return (
          (k?.toLowerCase() === 'max-age' && Number(v) <= 0) ||
          (k?.toLowerCase() === 'expires' && Date.parse(v ?? '') < Date.now())
        );
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  all(): [string, string][] {
    return [...this.cookies];
  }
}
