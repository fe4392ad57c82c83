/**
 * A real OpenID Connect provider for the tests, the e2e suite and the demo: node-oidc-provider (the
 * certified implementation) on a loopback port, with one confidential client for the dashboard
 * (authorization code, PKCE, refresh tokens) and a few people in each of the team's groups. Its
 * sign-in form takes a login and that person's password (`<login>-password`); consent is given with
 * the sign-in, as an organisation's own provider does for its own applications.
 *
 * Tests change a person's groups (`setGroups`) or take their sign-in away (`revoke`) to see a role
 * change reach the dashboard; over HTTP, the e2e suite does the same through `/__admin/…`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestPerson {
  login: string;
  name: string;
  email: string;
  groups: string[];
}

/** The dashboard's groups, as the README's example configuration names them. */
export const TEST_GROUPS = { admin: 'sms-admins', support: 'sms-support', viewer: 'sms-viewers' } as const;

export const TEST_PEOPLE: readonly TestPerson[] = [
  { login: 'aiko', name: 'Aiko Admin', email: 'aiko@example.test', groups: [TEST_GROUPS.admin] },
  { login: 'sora', name: 'Sora Support', email: 'sora@example.test', groups: [TEST_GROUPS.support] },
  { login: 'saki', name: 'Saki Support', email: 'saki@example.test', groups: [TEST_GROUPS.support, 'helpdesk'] },
  { login: 'vic', name: 'Vic Viewer', email: 'vic@example.test', groups: [TEST_GROUPS.viewer] },
  { login: 'nobu', name: 'Nobu Nobody', email: 'nobu@example.test', groups: ['marketing'] },
];

export const passwordOf = (login: string) => `${login}-password`;

export interface OidcProviderOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The dashboards' callback URLs (`<origin>/api/auth/callback/oidc`). */
  redirectUris: string[];
  /** Seconds an access token lives (short ones let a test see it run out). */
  accessTokenTtl?: number;
}

export interface RunningOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  setGroups(login: string, groups: string[]): void;
  /** Ends every grant of the person: their refresh tokens are refused from now on. */
  revoke(login: string): Promise<void>;
  close(): Promise<void>;
}

export const TEST_CLIENT = { id: 'sms-dashboard', secret: 'test-client-secret-0123456789abcdef' } as const;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body><main><h1>Test identity provider</h1>${body}</main></body></html>`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginForm(uid: string, error?: string): string {
  return page(`${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}">
  <label>Login <input name="login" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

export async function startOidcProvider(opts: OidcProviderOptions): Promise<RunningOidcProvider> {
  const people = new Map(TEST_PEOPLE.map((p) => [p.login, { ...p, groups: [...p.groups] }]));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = opts.clientId ?? TEST_CLIENT.id;
  const clientSecret = opts.clientSecret ?? TEST_CLIENT.secret;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] as never },
    cookies: { keys: ['test-oidc-cookie-key-0123456789abcdef'] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'groups'], email: ['email'] },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    // The groups in the ID token itself, as Keycloak's and Okta's group mappers put them.
    conformIdTokenClaims: false,
    // A refresh token for every sign-in of a client that may use one (offline_access without
    // prompt=consent is dropped by this strict provider; organisations' providers give one).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: false,
    ttl: { AccessToken: opts.accessTokenTtl ?? 3600, IdToken: 3600, RefreshToken: 14 * 86_400, Grant: 14 * 86_400 },
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            name: person.name,
            preferred_username: person.login,
            email: person.email,
            groups: [...person.groups],
          };
        },
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const grants = new Map<string, string[]>();
  const callback = provider.callback();

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      const interaction = /^\/interaction\/([^/]+)$/.exec(url.pathname);
      if (interaction && req.method === 'GET') {
        await provider.interactionDetails(req, res);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(loginForm(interaction[1]!));
        return;
      }
      if (interaction && req.method === 'POST') {
        const details = await provider.interactionDetails(req, res);
        const form = await readForm(req);
        const login = form.get('login') ?? '';
        if (!people.has(login) || form.get('password') !== passwordOf(login)) {
          res
            .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
            .end(loginForm(interaction[1]!, 'Wrong login or password.'));
          return;
        }
        const grant = new provider.Grant({ accountId: login, clientId: details.params.client_id as string });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        grants.set(login, [...(grants.get(login) ?? []), grantId]);
        await provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } });
        return;
      }
      if (url.pathname === '/__admin/groups' && req.method === 'POST') {
        const form = await readForm(req);
        const person = people.get(form.get('login') ?? '');
        if (!person) return void res.writeHead(404).end();
        person.groups = (form.get('groups') ?? '').split(',').filter(Boolean);
        return void res.writeHead(204).end();
      }
      if (url.pathname === '/__admin/revoke' && req.method === 'POST') {
        await revoke((await readForm(req)).get('login') ?? '');
        return void res.writeHead(204).end();
      }
      callback(req, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(err instanceof Error ? err.message : String(err));
    });
  });

  async function revoke(login: string): Promise<void> {
    for (const id of grants.get(login) ?? []) await (await provider.Grant.find(id))?.destroy();
    grants.delete(login);
  }

  return {
    issuer,
    clientId,
    clientSecret,
    setGroups(login, groups) {
      const person = people.get(login);
      if (!person) throw new Error(`no test person ${login}`);
      person.groups = [...groups];
    },
    revoke,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
