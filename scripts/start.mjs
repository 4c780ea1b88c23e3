// `npm start`: builds both browsers, then opens Jawad in a real browser with the build reloading on
// every change (vite build --watch + web-ext run). `npm start -- --browser firefox` for Firefox.
import { spawn, spawnSync } from 'node:child_process';
import { CHROMIUM, ensureBrowsers, FIREFOX, XVFB } from './ensure-browsers.mjs';

const browser = process.argv.includes('--browser') ? process.argv[process.argv.indexOf('--browser') + 1] : 'chromium';
if (!['chromium', 'firefox'].includes(browser)) {
  console.error('Usage: npm start [-- --browser chromium|firefox]');
  process.exit(1);
}

const needsXvfb = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
ensureBrowsers(needsXvfb ? [XVFB] : []);
if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);

// As cli/launch.ts's sandboxFlags: Chromium's sandbox cannot start as root; everyone else keeps it.
const sandbox = process.getuid?.() === 0 ? ['--args=--no-sandbox'] : [];
const target = browser === 'firefox' ? 'firefox' : 'chrome';
const watcher = spawn('npx', ['vite', 'build', '--mode', target, '--watch'], { stdio: ['ignore', 'ignore', 'inherit'] });
const webExt = [
  'web-ext', 'run', '--source-dir', `dist/${target}`, '--no-config-discovery',
  ...(browser === 'firefox'
    ? ['--target', 'firefox-desktop', '--firefox', FIREFOX]
    : ['--target', 'chromium', '--chromium-binary', CHROMIUM, ...sandbox, '--args=--no-first-run']),
  '--start-url', 'about:blank',
];
if (needsXvfb) console.log('No display found: running the browser on a virtual display (xvfb-run). Connect a display to see it.');
const [command, args] = needsXvfb ? ['xvfb-run', ['-a', 'npx', ...webExt]] : ['npx', webExt];
console.log(`Opening Jawad in ${browser}. The welcome tab has an “Open Jawad” button; the toolbar button and Alt+Shift+J open it too.`);
const runner = spawn(command, args, { stdio: 'inherit' });
const stop = () => {
  watcher.kill();
  runner.kill();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
runner.on('exit', (code) => {
  watcher.kill();
  process.exit(code ?? 0);
});
