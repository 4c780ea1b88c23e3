// `npm test`: everything a change must pass — types, unit tests, both builds, web-ext lint, and the
// end-to-end suite in real Chromium and real Firefox. Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { ensureBrowsers } from './ensure-browsers.mjs';

const totals = { passed: 0, failed: 0, skipped: 0 };

function run(label, command, args) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    return false;
  }
  return true;
}

function vitest(label, config, reportFile) {
  const ok = run(label, 'npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`]);
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    totals.failed += 1; // the runner died before writing a report
  }
  return ok;
}

function lintFirefox() {
  console.log('\n▶ web-ext lint (Firefox build)');
  const result = spawnSync('npx', ['web-ext', 'lint', '--source-dir', 'dist/firefox', '--self-hosted', '--output', 'json'], { encoding: 'utf8' });
  const report = JSON.parse(result.stdout);
  for (const warning of report.warnings) console.log(`  warning ${warning.code}: ${warning.file} — ${warning.message}`);
  for (const error of report.errors) console.log(`  ERROR ${error.code}: ${error.file} — ${error.message}`);
  console.log(`  ${report.summary.errors} errors, ${report.summary.warnings} warnings`);
  return report.summary.errors === 0;
}

mkdirSync('.tmp', { recursive: true });
ensureBrowsers();
const steps = [
  () => run('Type check', 'npx', ['tsc', '--noEmit']),
  () => vitest('Unit tests', 'vitest.config.ts', '.tmp/unit-report.json'),
  () => run('Build Chrome and Firefox', 'npm', ['run', 'build', '--silent']),
  () => lintFirefox(),
  () => vitest('End-to-end tests in Chromium and Firefox', 'vitest.e2e.config.ts', '.tmp/e2e-report.json'),
];
let allOk = true;
for (const step of steps) allOk = step() && allOk;
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(allOk && totals.failed === 0 ? 0 : 1);
