// `npm run package`: the store uploads — a Chrome Web Store zip and a Firefox add-on package — in
// web-ext-artifacts/.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
run('npm', ['run', 'build', '--silent']);
for (const target of ['chrome', 'firefox']) {
  run('npx', ['web-ext', 'build', '--source-dir', `dist/${target}`, '--artifacts-dir', 'web-ext-artifacts',
    '--filename', `jawad-${target}-${version}.zip`, '--overwrite-dest', '--no-config-discovery']);
}
console.log(`Chrome Web Store upload: web-ext-artifacts/jawad-chrome-${version}.zip`);
console.log(`Firefox Add-ons upload:  web-ext-artifacts/jawad-firefox-${version}.zip`);
