// `npm test`: everything a change must pass — types, unit tests, both builds, web-ext lint, and the
// end-to-end suite in real Chromium and real Firefox. Ends with the ten slowest tests and then one
// "N passed, N failed" line.
//
// A broken run must still end, and say so, inside CI's 90-minute slot: the E2E suite cuts off a
// browser that keeps failing (test/support/cut-off.ts), and each vitest run here has a time limit
// after which it is stopped and counted as failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureBrowsers } from './ensure-browsers.mjs';
import { countsOf, cutOffsOf, formatMs, slowestOf, type JsonReport } from './test-report';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTE = 60_000;
/** The whole E2E run's limit (JAWAD_E2E_LIMIT_MIN): above the two browsers' cut-off budgets. */
const E2E_LIMIT_MS = (Number(process.env.JAWAD_E2E_LIMIT_MIN) || 65) * MINUTE;
const UNIT_LIMIT_MS = 15 * MINUTE;

interface LintReport {
  warnings: Array<{ code: string; file: string; message: string }>;
  errors: Array<{ code: string; file: string; message: string }>;
  summary: { errors: number; warnings: number };
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const reports: JsonReport[] = [];

function run(label: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    return false;
  }
  return true;
}

/**
 * Runs a command in its own process group and stops the whole group (SIGTERM, then SIGKILL) when
 * it outlives `limitMs`. Resolves true when it exited with status 0.
 */
function runWithLimit(label: string, command: string, args: string[], limitMs: number): Promise<boolean> {
  console.log(`\n▶ ${label}`);
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env: process.env, detached: true });
    const signal = (name: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, name);
      } catch {
        // The group has already gone.
      }
    };
    const timer = setTimeout(() => {
      console.error(`\n✖ ${label} did not finish within ${Number((limitMs / MINUTE).toFixed(2))} min: stopping it`);
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) console.error(`\n✖ ${label} failed`);
      done(code === 0);
    });
  });
}

async function vitest(label: string, config: string, reportFile: string, limitMs: number): Promise<boolean> {
  rmSync(reportFile, { force: true }); // a report left from an earlier run must not count
  const ok = await runWithLimit(label, process.execPath, [resolve(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`], limitMs);
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
  } catch {
    console.error(`✖ ${label}: no report (vitest stopped before writing one); counted as 1 failed`);
    totals.failed += 1;
    return false;
  }
  reports.push(report);
  const counts = countsOf(report);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  if (counts.notRun) console.error(`✖ ${label}: ${counts.notRun} tests did not run because a hook before them failed; counted as failed`);
  for (const cut of cutOffsOf(report)) console.error(`✖ ${label}: ${cut.tests} tests counted as failed without running. ${cut.reason}`);
  return ok;
}

function lintFirefox(): boolean {
  console.log('\n▶ web-ext lint (Firefox build)');
  const result = spawnSync('npx', ['web-ext', 'lint', '--source-dir', 'dist/firefox', '--self-hosted', '--output', 'json'], { encoding: 'utf8' });
  const report = JSON.parse(result.stdout) as LintReport;
  for (const warning of report.warnings) console.log(`  warning ${warning.code}: ${warning.file} — ${warning.message}`);
  for (const error of report.errors) console.log(`  ERROR ${error.code}: ${error.file} — ${error.message}`);
  console.log(`  ${report.summary.errors} errors, ${report.summary.warnings} warnings`);
  return report.summary.errors === 0;
}

function printSlowest(): void {
  const slowest = slowestOf(reports, ROOT);
  if (slowest.length === 0) return;
  console.log(`\nThe ${slowest.length} slowest tests:`);
  for (const test of slowest) console.log(`  ${formatMs(test.ms).padStart(8)}  ${test.name}`);
}

mkdirSync('.tmp', { recursive: true });
ensureBrowsers();
const steps: Array<() => boolean | Promise<boolean>> = [
  () => run('Type check', 'npx', ['tsc', '--noEmit']),
  () => vitest('Unit tests', 'vitest.config.ts', '.tmp/unit-report.json', UNIT_LIMIT_MS),
  () => run('Build Chrome and Firefox', 'npm', ['run', 'build', '--silent']),
  () => lintFirefox(),
  () => vitest('End-to-end tests in Chromium and Firefox', 'vitest.e2e.config.ts', '.tmp/e2e-report.json', E2E_LIMIT_MS),
];
let allOk = true;
for (const step of steps) allOk = (await step()) && allOk;
printSlowest();
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(allOk && totals.failed === 0 ? 0 : 1);
