#!/usr/bin/env node
/**
 * Records in package-lock.json the platform-specific optional packages that `npm install` left out.
 *
 * Why: the registry reachable from our machines carries only the Linux builds of packages such as
 * @next/swc-darwin-arm64; `npm install` then writes a lock file without the others, and `npm ci`
 * refuses that lock ("Missing: … from lock file"). An entry marked optional is enough for `npm ci`,
 * which skips an optional package it cannot fetch. Run this after any change of dependencies:
 *
 *   npm install && node scripts/lockfile-optional.mjs
 */
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
const added = [];
for (const [location, pkg] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (packages[nested] || packages[top]) continue;
    packages[top] = { version: String(spec).replace(/^[\^~=]/, ''), optional: true };
    added.push(`${name}@${spec}`);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `recorded ${added.length} optional packages: ${added.join(', ')}` : 'nothing to record');
