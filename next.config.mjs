/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ['better-sqlite3'],
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
        ],
      },
    ];
  },
};

export default nextConfig;
