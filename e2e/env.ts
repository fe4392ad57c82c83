/**
 * Where the end-to-end suite's servers listen. Two dashboards share one production build and one
 * simulator: a roomy one (large limits, so most specs are not slowed by the upstream's budget) and
 * a strict one with the real 3/10/100 limits, where the quota spec runs out of calls for real.
 */
export const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? 4110);
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const STRICT_PORT = Number(process.env.E2E_STRICT_PORT ?? 3101);
/** Specs with a dashboard of their own (e2e/own-dashboard.ts), each on its own port. */
export const EXPORTS_PORT = Number(process.env.E2E_EXPORTS_PORT ?? 3102);
/** The cluster spec's two instances listen on this port and the next (e2e/cluster.spec.ts). */
export const CLUSTER_PORT = Number(process.env.E2E_CLUSTER_PORT ?? 3103);
export const HISTORY_PORT = Number(process.env.E2E_HISTORY_PORT ?? 3105);
/** The team spec's dashboard (e2e/team.spec.ts) and the test identity provider it signs in with. */
export const TEAM_PORT = Number(process.env.E2E_TEAM_PORT ?? 3120);
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 4120);
/** The reconcile spec's own dashboard (e2e/reconcile.spec.ts). */
export const RECONCILE_PORT = Number(process.env.E2E_RECONCILE_PORT ?? 3112);
/** The startup spec's servers, which refuse to start (e2e/startup.spec.ts). */
export const STARTUP_PORT = Number(process.env.E2E_STARTUP_PORT ?? 3106);
/** The operations spec's server: metrics, health, request ids, a stop (e2e/operations.spec.ts). */
export const OPS_PORT = Number(process.env.E2E_OPS_PORT ?? 3107);
/** The bilingual journeys' own dashboard (e2e/bilingual.spec.ts). */
export const LANGUAGES_PORT = Number(process.env.E2E_LANGUAGES_PORT ?? 3109);

export const SIM_URL = `http://127.0.0.1:${SIM_PORT}`;
export const APP_URL = `http://localhost:${APP_PORT}`;
export const STRICT_URL = `http://localhost:${STRICT_PORT}`;
export const OIDC_URL = `http://127.0.0.1:${OIDC_PORT}`;

export const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-e2e';
export const DATA_ROOT = process.env.E2E_DATA_ROOT ?? `/tmp/sms-dashboard-e2e-${process.pid}`;

export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};
