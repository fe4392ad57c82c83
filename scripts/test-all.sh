#!/usr/bin/env bash
# Every check of the project, as CI runs it: lint, type check, unit + integration tests (vitest),
# then the end-to-end suite (Playwright, real Chromium, production build, the simulator).
# Ends with one line `N passed, N failed` summing both runners.
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d)
status=0

echo "== lint"; npm run -s lint || status=1
echo "== type check"; npm run -s typecheck || status=1

echo "== unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile="$out/vitest.json" || status=1

echo "== end-to-end tests (playwright)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" npx playwright test --reporter=list,json || status=1

node - "$out" "$status" <<'NODE'
const fs = require('node:fs');
const [dir, status] = process.argv.slice(2);
let passed = 0, failed = 0, skipped = 0;
const read = (f) => { try { return JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')); } catch { return null; } };
const v = read('vitest.json');
if (v) { passed += v.numPassedTests; failed += v.numFailedTests; skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0); }
else failed += 1; // vitest did not report: count the run itself as a failure
const p = read('playwright.json');
if (p && p.stats) { passed += p.stats.expected + (p.stats.flaky ?? 0); failed += p.stats.unexpected; skipped += p.stats.skipped; }
else failed += 1;
// Lint or type errors fail the run even when every test passed.
if (status !== '0' && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
process.exit(failed > 0 ? 1 : 0);
NODE
