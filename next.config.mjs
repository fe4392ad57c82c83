import createNextIntlPlugin from 'next-intl/plugin';

/**
 * Browser features the dashboard never uses, switched off for it and anything it could embed. The
 * clipboard stays at the browser's default (this origin only): Copy buttons write to it. Only
 * features Chromium knows are listed; an unknown one is a console error on every page. The
 * per-request headers (CSP with its nonce, HSTS) are set by proxy.ts.
 */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  // prom-client: one copy for the process, whose registry every route adds to (lib/metrics).
  serverExternalPackages: ['better-sqlite3', 'prom-client'],
  poweredByHeader: false,
  // `npm run typecheck` (tsc over the whole project, tests included) runs before every build in CI;
  // checking again inside `next build` would only double the time.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // Where the build goes; lets the e2e suite and the demo build side by side without clashing.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: PERMISSIONS_POLICY },
        ],
      },
    ];
  },
};

/**
 * next-intl without locale routing (URLs are the same in every language): its request
 * configuration (lib/root/intl-request.ts) picks the language of each page, and the catalogues
 * (messages/<locale>/<namespace>.json) are compiled when built — each ICU message into a compact
 * form — so the browser gets a formatter of a few hundred bytes instead of an ICU parser (about
 * 9 kB gzip), on every page. Every catalogue must come through that loader (lib/i18n/catalogue.ts
 * imports them).
 */
const withNextIntl = createNextIntlPlugin({
  requestConfig: './lib/root/intl-request.ts',
  experimental: {
    messages: { path: './messages', format: 'json', locales: ['ja', 'en'], precompile: true },
  },
});

export default withNextIntl(nextConfig);
